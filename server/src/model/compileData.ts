/**
 * Data sets of a model, as the engines read them: `data T { … }` inline tables and `data T from
 * "x.csv"` files become CategoricalDatasets (state indices, −1 missing) whose columns use the
 * declared domains where the file declares the variable, or NumericData for real-valued columns.
 */
import type * as A from '../language/ast.js';
import { cellCount, cellKind, cellNumber, cellRange, cellText } from '../language/index.js';
import type { CheckEnvironment, SymbolTable } from '../language/index.js';
import { encodeCategorical, type CategoricalDataset } from '../engine/categoricalData.js';
import { numericColumns, type NumericData } from '../engine/dataset.js';
import { EngineError } from '../engine/engineError.js';
import { DataError, readDiscreteText, readNumericText } from './dataTable.js';
import { readModelText } from './files.js';
import { CompileError } from './compileError.js';
import { setOwn } from '../engine/records.js';

/** The states each variable of the default model declares (hypothesis spaces included). */
export function declaredDomains(symbols: SymbolTable): Record<string, readonly string[]> {
  const domains: Record<string, readonly string[]> = {};
  for (const [name, v] of symbols.defaultScope.variables) if (v.states) setOwn(domains, name, v.states);
  return domains;
}

export async function categoricalData(
  decl: A.DataDecl,
  symbols: SymbolTable,
  env: CheckEnvironment,
): Promise<CategoricalDataset> {
  const declared = declaredDomains(symbols);
  if (decl.source) {
    const text = readModelText(decl.source, env);
    return withDataErrors(decl, () => readDiscreteText(text, { declared }));
  }
  const header = decl.header.map((h) => h.text);
  const rows = decl.rows.map((row) => Array.from({ length: cellCount(row) }, (_, i) => cellText(row, i) ?? null));
  return withDataErrors(decl, async () => encodeCategorical(header, rows, pick(declared, header)));
}

/** The named columns as numbers (all of them when `columns` is empty); a headerless file's columns are x1, x2, … */
export async function numericData(decl: A.DataDecl, columns: string[], env: CheckEnvironment): Promise<NumericData> {
  const all = decl.source
    ? await withDataErrors(decl, () => readNumericText(readModelText(decl.source!, env)))
    : inlineNumbers(decl);
  return numericColumns(
    all,
    columns.length ? columns : all.names,
    (c) =>
      new CompileError(
        `data '${decl.name.text}' has no column '${c}' (columns: ${all.names.join(', ')})`,
        decl.name.range,
      ),
  );
}

function inlineNumbers(decl: A.DataDecl): NumericData {
  const dims = decl.header.length;
  const values = new Float64Array(decl.rows.length * dims);
  decl.rows.forEach((row, r) => {
    for (let c = 0; c < cellCount(row); c++) {
      if (cellKind(row, c) !== 'number')
        throw new CompileError(
          `'${cellText(row, c) ?? '?'}' is not a number (column ${decl.header[c]!.text})`,
          cellRange(row, c)!,
        );
      values[r * dims + c] = cellNumber(row, c);
    }
  });
  return { names: decl.header.map((h) => h.text), values, rows: decl.rows.length, dims };
}

function pick(domains: Record<string, readonly string[]>, names: string[]): Record<string, readonly string[]> {
  return Object.fromEntries(names.filter((n) => Object.hasOwn(domains, n)).map((n) => [n, domains[n]!]));
}

/** Data problems (a value outside a domain, a ragged row) become compile errors on the data set's name. */
async function withDataErrors<T>(decl: A.DataDecl, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof EngineError || e instanceof DataError) {
      throw new CompileError(`data '${decl.name.text}': ${e.message}`, decl.name.range);
    }
    throw e;
  }
}
