/**
 * The custom LSP methods of the Bayes language server, one name each for the server, the VS Code
 * client, the tests and other editors. Their parameter and answer types are in messages.ts.
 */
export const Method = {
  /** Notification, server → client: a finished run (RunResultMessage). */
  runResult: 'bayes/runResult',
  /** Notification, server → client: a run started or ended (RunStateMessage). */
  runState: 'bayes/runState',
  /** Request, client → server: `{ uri }` → the last run of a document (LastResult | null). */
  lastResult: 'bayes/lastResult',
  /** Request, client → server: `{ uri }` → every network of a model (NetworkSummary[]). */
  networks: 'bayes/networks',
  /** Request, client → server: `{ uri, network }` → the network as BIF (`{ text } | { error }`). */
  exportBif: 'bayes/exportBif',
  /**
   * Request, client → server: MarginalsParams → every marginal of one network under the given
   * evidence (MarginalsReply), from a network compiled once per document version, off the main thread.
   */
  marginals: 'bayes/marginals',
  /** Request, client → server: `{ uri }` → the document's `expect` statements (ExpectItem[]; [] when not open). */
  expects: 'bayes/expects',
  /**
   * Request, client → server: DecisionsParams → each decision's expected utility per alternative and
   * the MEU of an influence diagram under the given evidence (DecisionsReply).
   */
  decisions: 'bayes/decisions',
  /**
   * Request, client → server: DiagnosisParams → the unobserved variables ranked by the mutual
   * information with a target, and the data-conflict measure of the evidence (DiagnosisReply).
   */
  diagnosis: 'bayes/diagnosis',
  /** Notification, client → server: `{ trusted }`, the workspace was trusted. */
  trust: 'bayes/trust',
  /**
   * Request, server → client, web build only: `{ path }` (the path of a workspace file's URI) →
   * `{ base64 } | { error }` ('missing', 'outside' a workspace folder, 'folder'). browser/host.ts.
   */
  readFile: 'bayes/readFile',
} as const;

/** The workspace/executeCommand that runs a model: arguments `[uri]`. */
export const RUN_COMMAND = 'bayes.server.run';
