/**
 * What a statement handler is given and gives back. Each learn form and each query form has at most
 * one handler, keyed `learn`, `learn structure` or `query <form>` (the table is handlers/index.ts);
 * `expect` lines reuse the query handler of their query and compare its `value`.
 */
import type {
  BayesFile,
  CheckEnvironment,
  ExpectStmt,
  LearnStmt,
  Query,
  QueryForm,
  QueryStmt,
  SymbolTable,
} from '../language/index.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { ResultEntry } from '../protocol/runResult.js';

export type HandlerKey = 'learn' | 'learn structure' | `query ${QueryForm}`;
export type RunnableStatement = LearnStmt | QueryStmt | ExpectStmt;

export interface HandlerContext {
  /** The statement being run; for `expect`, the whole expect statement (its `query` is the query). */
  statement: RunnableStatement;
  ast: BayesFile;
  symbols: SymbolTable;
  env: CheckEnvironment;
  /** The statement's source text, for `ResultBase.source`. */
  source: string;
  /** Checked by long loops; stop and return what there is when aborted. */
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /**
   * State shared by the handlers of one run, e.g. parameters learnt by `learn` that later
   * queries read. Keys are owned by the handlers that write them.
   */
  shared: Map<string, unknown>;
}

export interface HandlerOutput {
  results: ResultEntry[];
  diagnostics: Diagnostic[];
  /** The query's answer as `expect` compares it: a number, or a name such as a state. */
  value?: number | string;
}

export type Handler = (context: HandlerContext) => HandlerOutput | Promise<HandlerOutput>;

/** Which handler answers each form: a form without one is answered by a diagnostic, never a number. */
export type HandlerTable = Readonly<Partial<Record<HandlerKey, Handler>>>;

export function handlerKey(statement: RunnableStatement): HandlerKey {
  if (statement.kind === 'learn') return statement.structure ? 'learn structure' : 'learn';
  return `query ${statement.query.form}`;
}

/** The query of a `query` or `expect` statement, as the form its handler was registered for. */
export function queryOf<Q extends Query>(context: HandlerContext): Q {
  const statement = context.statement;
  if (statement.kind === 'learn') throw new Error('a learn statement has no query');
  return statement.query as Q;
}
