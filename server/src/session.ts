/**
 * The server's document lifecycle. On change: parse and check (debounced), publish. On save
 * (setting bayes.runOnSave) and on the Run command: run in a worker. Keeps, per document,
 * the parse of its current version and the last run, which hover, inlay hints and code lens
 * read; pushes each finished run to the client as `bayes/runResult`.
 */
import {
  DiagnosticSeverity,
  ShowMessageNotification,
  MessageType,
  type Connection,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver/node';
import { checkText, type CheckedDocument } from './run/pipeline.js';
import type { CheckEnvironment } from './language/index.js';
import { OpenDocuments, type ParsedDocument } from './workspace/documents.js';
import type { Diagnostic } from './language/diagnostics.js';
import { RunScheduler } from './run/runScheduler.js';
import type { RunRecord, RunState } from './protocol/messages.js';
import { summary } from './run/runSummary.js';
import { Method } from './protocol/methods.js';
import { SettingsStore, type BayesSettings } from './workspace/settings.js';
import { documentPath, environmentOptions } from './workspace/environment.js';
import { FileFacts } from './workspace/fileFacts.js';
import { nodeFiles } from './workspace/files.js';
import type { Limits } from './run/limitedWorker.js';
import type { Files } from './language/environment.js';

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    severity: SEVERITY[d.severity],
    message: d.message,
    range: d.range,
    code: d.code,
    source: 'bayes',
    data: d.data,
  };
}

/** A check runs at once when the document was quiet this long; bursts of typing coalesce. */
const DEBOUNCE_MS = 150;
/** A parse that takes longer than this is costly enough to wait for the typing to pause. */
const COSTLY_PARSE_MS = 30;

export interface SessionCapabilities {
  /** The client answers workspace/configuration. */
  configuration: boolean;
  /** The client accepts window/workDoneProgress/create. */
  progress: boolean;
  /** The client reports added and removed workspace folders. */
  workspaceFolders: boolean;
}

export class Session {
  private readonly open = new OpenDocuments();
  readonly documents = this.open.documents;
  readonly settings: SettingsStore;
  readonly runs: RunScheduler;
  workspaceRoots: string[] = [];
  /** Workspace trust (VS Code restricted mode): untrusted models are checked, never run. */
  trusted = true;
  capabilities: SessionCapabilities = { configuration: false, progress: false, workspaceFolders: false };

  private readonly checked = new Map<string, { version: number; result: CheckedDocument }>();
  private readonly lastRuns = new Map<string, RunRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastCheckAt = new Map<string, number>();
  /** The checker's file questions, answered asynchronously (never a synchronous read on this thread). */
  private readonly facts = new FileFacts();
  /** Per document, the file questions its last check asked: brought up to date before the next. */
  private readonly asked = new Map<string, Set<string>>();
  /** Listeners for finished runs (code lens refresh, inlay hint refresh). */
  readonly runListeners: ((record: RunRecord) => void)[] = [];

  constructor(
    readonly connection: Connection,
    workerPath?: string,
  ) {
    this.settings = new SettingsStore(connection, () => this.capabilities.configuration);
    this.runs = new RunScheduler(
      {
        connection,
        canReportProgress: () => this.capabilities.progress,
        onRunState: (uri, state) => this.sendRunState(uri, state),
        onRunFinished: (record) => this.finishRun(record),
      },
      workerPath,
    );
    this.documents.onDidChangeContent((e) => this.scheduleCheck(e.document.uri));
    this.documents.onDidSave((e) => void this.runOnSave(e.document.uri));
    this.documents.onDidClose((e) => this.close(e.document.uri));
  }

  /** The parse of the document's current version (parsed at most once per version). */
  parse(uri: string): ParsedDocument | undefined {
    return this.open.parse(uri);
  }

  /** Whether the current version still has to be parsed, at a cost over `ms` (see `features/index.ts`). */
  costlyToParse(uri: string, ms: number): boolean {
    return this.open.costlyToParse(uri, ms);
  }

  /** The last finished run, whatever text it saw (Show Results, Export). */
  lastRun(uri: string): RunRecord | undefined {
    return this.lastRuns.get(uri);
  }

  /** The last run if the document still reads as it did, so its ranges are valid. */
  currentRun(uri: string): RunRecord | undefined {
    const record = this.lastRuns.get(uri);
    const document = this.documents.get(uri);
    return record && document && record.text === document.getText() ? record : undefined;
  }

  private scheduleCheck(uri: string): void {
    clearTimeout(this.timers.get(uri));
    // A model slow to parse is checked only once the typing pauses: checks would otherwise follow
    // each other back to back.
    const quiet =
      Date.now() - (this.lastCheckAt.get(uri) ?? 0) >= DEBOUNCE_MS && !this.open.costlyToParse(uri, COSTLY_PARSE_MS);
    if (quiet) {
      void this.check(uri);
      return;
    }
    this.timers.set(
      uri,
      setTimeout(() => void this.check(uri), DEBOUNCE_MS),
    );
  }

  async check(uri: string): Promise<CheckedDocument | undefined> {
    this.timers.delete(uri);
    this.lastCheckAt.set(uri, Date.now());
    const parsed = this.parse(uri);
    if (!parsed) return undefined;
    const version = parsed.version;
    const result = await this.withFiles(uri, (env) => checkText(parsed.text, env, parsed.parse));
    if (this.documents.get(uri)?.version !== version) return result; // a newer version is on its way
    this.checked.set(uri, { version, result });
    this.publish(uri);
    return result;
  }

  /**
   * `use` with the document's environment: what its model may read (its workspace folder and data
   * roots; no content when untrusted), answered from files read asynchronously. A question the
   * answers did not hold yet is read, and `use` runs again with it.
   */
  /** The `bayes.precision` setting of the document. */
  async precision(uri: string): Promise<number> {
    return (await this.settings.get(uri)).precision;
  }

  async runLimits(uri: string): Promise<Limits> {
    const { run } = await this.settings.get(uri);
    return { timeoutMs: run.timeoutSeconds * 1000, memoryMb: run.memoryMb };
  }

  async withFiles<T>(uri: string, use: (env: CheckEnvironment) => T): Promise<T> {
    const settings = await this.settings.get(uri);
    const options = { ...environmentOptions(uri, this.workspaceRoots, settings), restricted: !this.trusted };
    const env = this.facts.environment(options, await this.runLimits(uri));
    await this.facts.fetch(env, this.asked.get(uri) ?? []);
    let result = use(env);
    for (let pass = 0; pass < 3 && env.missed.size > 0; pass++) {
      const missed = [...env.missed];
      env.missed.clear();
      await this.facts.fetch(env, missed);
      result = use(env);
    }
    this.asked.set(uri, new Set(env.asked));
    return result;
  }

  /**
   * Confined asynchronous file access for the document's model (quick fixes). Confinement holds
   * in every mode; features read content only when `trusted`.
   */
  async files(uri: string): Promise<Files> {
    return nodeFiles(environmentOptions(uri, this.workspaceRoots, await this.settings.get(uri)));
  }

  private async runOnSave(uri: string): Promise<void> {
    const settings = await this.settings.get(uri);
    if (settings.runOnSave) await this.run(uri);
  }

  /** Runs the document's model now; resolves with how the run ended. */
  async run(
    uri: string,
    options: { fresh?: boolean; reportReuse?: boolean } = {},
  ): Promise<RunState | 'reused' | 'untrusted' | 'unknown-document'> {
    const parsed = this.parse(uri);
    if (!parsed) return 'unknown-document';
    if (!this.trusted) {
      // A notification (window/showMessage): every editor accepts it, none has to answer.
      void this.connection.sendNotification(ShowMessageNotification.type, {
        type: MessageType.Info,
        message:
          'Bayes: this workspace is in restricted mode; models are checked but not run. Trust the workspace to run them.',
      });
      return 'untrusted';
    }
    const settings: BayesSettings = await this.settings.get(uri);
    const envOptions = environmentOptions(uri, this.workspaceRoots, settings);
    // The check of this version is already there (or on its way): a run does not check again.
    const known = this.checked.get(uri);
    const checked = known?.version === parsed.version ? known.result : await this.check(uri);
    if (!checked) return 'unknown-document';
    return this.runs.run({ uri, text: parsed.text, settings, envOptions, checked, ...options });
  }

  /** Diagnostics of the current text: the last run's when it saw this text (they include the check's). */
  private publish(uri: string): void {
    const document = this.documents.get(uri);
    if (!document) return;
    const run = this.currentRun(uri);
    const checked = this.checked.get(uri);
    const diagnostics = run
      ? run.result.diagnostics
      : checked?.version === document.version
        ? checked.result.diagnostics
        : undefined;
    if (!diagnostics) return;
    void this.connection.sendDiagnostics({
      uri,
      version: document.version,
      diagnostics: diagnostics.map(toLspDiagnostic),
    });
  }

  private finishRun(record: RunRecord): void {
    this.lastRuns.set(record.uri, record);
    this.publish(record.uri);
    const { text: _text, ...message } = record;
    void this.connection.sendNotification(Method.runResult, message);
    this.sendRunState(record.uri, record.state);
    for (const listener of this.runListeners) listener(record);
  }

  private sendRunState(uri: string, state: RunState): void {
    const record = state === 'done' || state === 'failed' ? this.lastRuns.get(uri) : undefined;
    void this.connection.sendNotification(Method.runState, {
      uri,
      state,
      ...(record ? summary(record) : {}),
    });
  }

  private close(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.runs.cancel(uri);
    for (const m of [this.timers, this.checked, this.lastRuns, this.lastCheckAt, this.asked]) m.delete(uri);
    this.open.forget(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Settings or trust changed: every open document is checked again. */
  /** A file changed on disk: the folder listings holding it are walked again at the next check. */
  fileChanged(path: string): void {
    this.facts.changed(path);
  }

  recheckAll(): void {
    this.settings.forget();
    for (const document of this.documents.all()) void this.check(document.uri);
  }

  pathOf(uri: string): string | undefined {
    return documentPath(uri);
  }
}
