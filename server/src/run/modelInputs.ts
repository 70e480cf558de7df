/**
 * What handlers read from the model, compiled once per run and shared through the handler
 * context: data sets, numeric columns and networks. A network that a `learn` statement has
 * learnt earlier in the run replaces the declared one (key `network:NAME`), so later queries see
 * the learnt numbers.
 */
import type * as A from '../language/ast.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { NumericData } from '../engine/dataset.js';
import { compileNetwork } from '../model/compileNetwork.js';
import { categoricalData, numericData } from '../model/compileData.js';
import { CompileError } from '../model/compileError.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { HandlerContext } from './handlerContext.js';

/** What compiling the model needs: the checked file, its host, and the run's memo. */
export type ModelContext = Pick<HandlerContext, 'ast' | 'symbols' | 'env' | 'shared'>;

/** `make()` once per run under `key`; later calls get the same value. */
export function memo<T>(ctx: ModelContext, key: string, make: () => T): T {
  if (!ctx.shared.has(key)) ctx.shared.set(key, make());
  return ctx.shared.get(key) as T;
}

/** Key of a network in `shared`; `undefined` = the file's default model. */
export function networkKey(name: string | undefined): string {
  return `network:${name ?? ''}`;
}

export function modelNetwork(ctx: ModelContext, name?: string): BayesianNetwork {
  return memo(ctx, networkKey(name), () => compileNetwork(ctx.ast, ctx.symbols, ctx.env, name));
}

/** Records that `learn` produced new parameters for a network; later statements read them. */
export function setLearnedNetwork(ctx: HandlerContext, name: string | undefined, net: BayesianNetwork): void {
  ctx.shared.set(networkKey(name), net);
}

function dataDecl(ctx: HandlerContext, name: A.Name): A.DataDecl {
  const info = ctx.symbols.data.get(name.text);
  if (!info) throw new CompileError(`'${name.text}' is not a data set`, name.range);
  return info.decl;
}

export function modelData(ctx: HandlerContext, name: A.Name): Promise<CategoricalDataset> {
  return memo(ctx, `data:${name.text}`, () => categoricalData(dataDecl(ctx, name), ctx.symbols, ctx.env));
}

/**
 * The columns of `all` that are variables of the network `learn` fits, in the data set's order,
 * and for an imported network an `unused-column` note naming the rest, which are ignored (the
 * checker already says it for declared networks; imported ones are only known now).
 */
export function networkColumns(
  ctx: HandlerContext,
  from: A.Name,
  all: CategoricalDataset,
  net: { name: string; variables: readonly { name: string }[] },
): { picked: CategoricalDataset; notes: Diagnostic[] } {
  const known = new Set(net.variables.map((v) => v.name));
  const keep = all.attributes.flatMap((a, i) => (known.has(a.name) ? [i] : []));
  const unused = all.attributes.filter((a) => !known.has(a.name)).map((a) => a.name);
  const picked: CategoricalDataset = {
    attributes: keep.map((i) => all.attributes[i]!),
    columns: keep.map((i) => all.columns[i]!),
    rowCount: all.rowCount,
  };
  if (unused.length === 0 || ctx.symbols.scopes.get(net.name)?.kind === 'network') return { picked, notes: [] };
  const note: Diagnostic = {
    severity: 'information',
    code: 'unused-column',
    range: from.range,
    message: `columns ${unused.join(', ')} of '${from.text}' are not in ${net.name} and are ignored`,
  };
  return { picked, notes: [note] };
}

/** `Points.x` or `Faithful[eruptions, waiting]` (or a whole data set) as numbers. */
export function modelNumbers(ctx: HandlerContext, ref: A.Ref): Promise<NumericData> {
  const columns = ref.member ? [ref.member.text] : (ref.columns ?? []).map((c) => c.text);
  return memo(ctx, `numbers:${ref.name.text}:${columns.join(',')}`, () =>
    numericData(dataDecl(ctx, ref.name), columns, ctx.env),
  );
}
