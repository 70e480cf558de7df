/**
 * Reads data tables for learning, streaming: each cell is encoded into its column's state index
 * as soon as the splitter yields the record, so memory is one Int32 per cell plus one
 * dictionary per column (a CategoricalDataset: Int32 value indices, −1 missing). Two layouts:
 *  - CSV with a header naming the variables (`,` by default);
 *  - the alarm-em `records.dat` form: space-separated quoted values, no header, columns in a
 *    network's variable order (pass `columns` and `delimiter: ' '`).
 * `?` or an empty cell is a missing value. Splitting (quotes, CRLF, BOM) is csvSplitter.ts's job.
 * Files are read through a Files (language/environment.ts): confined, checked, streamed.
 */
import type { Files } from '../language/environment.js';
import { CsvSplitter, CsvSyntaxError, HEADER_BYTES } from './csvSplitter.js';
import { MISSING, type CategoricalDataset } from '../engine/categoricalData.js';
import type { NumericData } from '../engine/dataset.js';

export interface TableOptions {
  /** Cell separator; default `,`. */
  delimiter?: string;
  /**
   * The variables in file column order. With states, a cell outside them is an error (the
   * states then index exactly as in the network); without states, each column's dictionary
   * grows in order of first appearance. When absent, the first record is the header.
   */
  columns?: Array<{ name: string; states?: string[] }>;
  /** With a header: the states of the columns named here, so cells encode straight into them. */
  declared?: Readonly<Record<string, readonly string[]>>;
}

export class DataError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Said by the checker and the run alike. */
export const HEADER_TOO_LONG = 'the header row is longer than 64 KiB';
export const EMPTY_TABLE = 'the table is empty (no header)';

const isMissing = (cell: string) => cell === '' || cell === '?';

/** One growing column of value indices, with its dictionary. */
class ColumnBuilder {
  // Small at first and doubled: a 10 MB CSV of 1,000,000 columns and one row took 4 KB a column (4 GB).
  values = new Int32Array(8);
  readonly index = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly states: string[],
    private readonly fixed: boolean,
  ) {
    states.forEach((s, i) => this.index.set(s, i));
  }

  add(row: number, cell: string, line: number): void {
    if (row >= this.values.length) {
      const v = new Int32Array(this.values.length * 2);
      v.set(this.values);
      this.values = v;
    }
    if (isMissing(cell)) {
      this.values[row] = MISSING;
      return;
    }
    let s = this.index.get(cell);
    if (s === undefined) {
      if (this.fixed)
        throw new DataError(`'${cell}' is not a state of ${this.name} (states: ${this.states.join(', ')})`, line);
      s = this.states.length;
      this.states.push(cell);
      this.index.set(cell, s);
    }
    this.values[row] = s;
  }
}

/** Text in memory, or a file's bytes as they are read (decoded as UTF-8 across chunk boundaries). */
export type Input = Iterable<string> | AsyncIterable<Uint8Array | string>;

/** Feeds the input through the splitter; syntax errors become DataErrors with their line. */
export async function eachRecord(
  input: Input,
  delimiter: string,
  onRecord: (cells: string[], line: number) => void,
): Promise<void> {
  let first = true;
  const splitter = new CsvSplitter(delimiter, (cells, line) => {
    // The run refuses a header the checker refuses (csvHeader): its columns are not allocated.
    if (first && cells.reduce((n, cell) => n + cell.length, cells.length - 1) > HEADER_BYTES)
      throw new DataError(HEADER_TOO_LONG, line);
    first = false;
    onRecord(cells, line);
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of input) {
      splitter.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    }
    const rest = decoder.decode();
    if (rest) splitter.push(rest);
    splitter.end();
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new DataError(e.message, e.line);
    throw e;
  }
}

/** Reads a discrete table from a file (streaming, through the confined reads of `files`). */
export function readDiscreteFile(files: Files, path: string, options: TableOptions = {}): Promise<CategoricalDataset> {
  return readDiscrete(files.chunks(path), options);
}

/** Reads a discrete table from text already in memory (tests, editor buffers). */
export function readDiscreteText(text: string, options: TableOptions = {}): Promise<CategoricalDataset> {
  return readDiscrete([text], options);
}

async function readDiscrete(input: Input, options: TableOptions): Promise<CategoricalDataset> {
  let builders: ColumnBuilder[] | undefined = options.columns?.map(
    (c) => new ColumnBuilder(c.name, [...(c.states ?? [])], c.states !== undefined),
  );
  let rows = 0;
  await eachRecord(input, options.delimiter ?? ',', (record, line) => {
    if (!builders) {
      builders = header(record, line, options.declared ?? {});
      return;
    }
    if (record.length !== builders.length)
      throw new DataError(`${valueCount(record.length)}, expected ${builders.length} (one per variable)`, line);
    for (let c = 0; c < builders.length; c++) builders[c]!.add(rows, record[c]!, line);
    rows++;
  });
  if (!builders) throw new DataError(EMPTY_TABLE, 1);
  return {
    attributes: builders.map((b) => ({ name: b.name, values: b.states })),
    columns: builders.map((b) => b.values.slice(0, rows)),
    rowCount: rows,
  };
}

function header(
  record: string[],
  line: number,
  declared: Readonly<Record<string, readonly string[]>>,
): ColumnBuilder[] {
  const seen = new Set<string>();
  return record.map((name, c) => {
    if (name === '') throw new DataError(`column ${c + 1} has no name in the header`, line);
    if (seen.has(name)) throw new DataError(`column '${name}' appears twice in the header`, line);
    seen.add(name);
    const states = Object.hasOwn(declared, name) ? declared[name] : undefined;
    return new ColumnBuilder(name, [...(states ?? [])], states !== undefined);
  });
}

export interface NumericOptions {
  delimiter?: string;
  /** Is the first line a header of names? Default: yes unless every cell of it is a number. */
  header?: boolean;
}

/**
 * The column names of a numeric table's first record: itself when it is a header (some cell is
 * not a number), else x1, x2, … (a headerless file such as faithful.csv).
 */
export function columnNames(firstRecord: readonly string[]): { names: string[]; isHeader: boolean } {
  const isHeader = firstRecord.some((cell) => cell === '' || !Number.isFinite(Number(cell)));
  return { names: isHeader ? [...firstRecord] : firstRecord.map((_, i) => `x${i + 1}`), isHeader };
}

/** Reads a numeric CSV into row-major Float64 values, for mixtures. Headerless columns are x1, x2, … */
export async function readNumericFile(files: Files, path: string, options: NumericOptions = {}): Promise<NumericData> {
  return readNumeric(files.chunks(path), options);
}

export async function readNumericText(text: string, options: NumericOptions = {}): Promise<NumericData> {
  return readNumeric([text], options);
}

async function readNumeric(input: Input, options: NumericOptions): Promise<NumericData> {
  let names: string[] | undefined;
  let values = new Float64Array(4096);
  let n = 0;
  let rows = 0;
  await eachRecord(input, options.delimiter ?? ',', (record, line) => {
    if (!names) {
      const sniffed = columnNames(record);
      if (options.header ?? sniffed.isHeader) {
        names = [...record];
        return;
      }
      names = sniffed.names;
    }
    if (record.length !== names.length)
      throw new DataError(`${valueCount(record.length)}, expected ${names.length}`, line);
    if (n + record.length > values.length) {
      const v = new Float64Array(values.length * 2);
      v.set(values);
      values = v;
    }
    for (let c = 0; c < record.length; c++) {
      const cell = record[c]!;
      const x = Number(cell);
      if (isMissing(cell) || !Number.isFinite(x))
        throw new DataError(`'${cell}' in column ${names[c]} is not a number (mixtures need every value)`, line);
      values[n++] = x;
    }
    rows++;
  });
  if (!names) throw new DataError('the table is empty', 1);
  return { names, values: values.slice(0, n), rows, dims: names.length };
}

/**
 * Guesses a table's layout from its first line: the delimiter (`,`, tab, else space) and whether
 * the line is a header — it is when every cell names one of `variables`; otherwise the file is
 * headerless with one column per variable in network order (the records.dat form). Either way
 * cells encode straight into the variables' state indices.
 */
export async function sniffLayout(
  files: Files,
  path: string,
  variables: Array<{ name: string; states: string[] }>,
): Promise<TableOptions> {
  const head = await files.head(path, 65536);
  const first =
    new TextDecoder()
      .decode(head)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0] ?? '';
  const delimiter = first.includes(',') ? ',' : first.includes('\t') ? '\t' : ' ';
  const cells = first
    .split(delimiter)
    .filter((c) => c !== '')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  const names = new Set(variables.map((v) => v.name));
  if (cells.length > 0 && cells.every((c) => names.has(c))) {
    return { delimiter, declared: Object.fromEntries(variables.map((v) => [v.name, v.states])) };
  }
  return { delimiter, columns: variables };
}

/** "1 value", "3 values": how many values a record has. */
function valueCount(n: number): string {
  return `${n} value${n === 1 ? '' : 's'}`;
}
