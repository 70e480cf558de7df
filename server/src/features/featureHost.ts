/** What the LSP features read of the server (implemented by Session; tests pass their own). */
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CheckEnvironment } from '../language/index.js';
import type { Files } from '../language/environment.js';
import type { ParsedDocument } from '../workspace/documents.js';
import type { RunRecord } from '../protocol/messages.js';
import type { Limits } from '../run/limitedWorker.js';

/** What the features read of the server: documents, their parse and last run, trust and files. */
export interface FeatureHost {
  readonly documents: TextDocuments<TextDocument>;
  readonly trusted: boolean;
  readonly runListeners: ((record: RunRecord) => void)[];
  parse(uri: string): ParsedDocument | undefined;
  /** The last run if the document still reads as it did. */
  currentRun(uri: string): RunRecord | undefined;
  lastRun(uri: string): RunRecord | undefined;
  /** `use` with the document's environment, its file answers read asynchronously. */
  withFiles<T>(uri: string, use: (env: CheckEnvironment) => T): Promise<T>;
  /** Confined asynchronous file access for the document's model (content only read when trusted). */
  files(uri: string): Promise<Files>;
  pathOf(uri: string): string | undefined;
  /** The `bayes.precision` setting for the document (significant digits shown). */
  precision?(uri: string): Promise<number>;
  /** The run's time and memory limits for the document (bayes.run.timeoutSeconds, bayes.run.memoryMb). */
  runLimits?(uri: string): Promise<Limits>;
  /** Whether the document's current version still has to be parsed, at a cost over `ms`. */
  costlyToParse(uri: string, ms: number): boolean;
}
