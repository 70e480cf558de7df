/**
 * Runs on save and on the Run command: one job per document, a newer run cancels the older,
 * results come from the cache when nothing they depend on changed. Runs that last over a
 * second report `$/progress` (cancellable); a failed run (crash, memory, time budget) ends
 * with a diagnostic and the server keeps serving.
 */
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import type { Diagnostic } from '../language/diagnostics.js';
import { RUN_RESULT_VERSION, type RunResult } from '../protocol/runResult.js';
import type { RunRecord, RunState } from '../protocol/messages.js';
import { startRunJob, type RunJob, type RunOutcome } from './runJob.js';
import { RunCache } from './runCache.js';
import { budgetsFor } from '../engine/budget.js';
import { confinementOf, nodeFiles, type NodeEnvironmentOptions } from '../workspace/files.js';
import type { BayesSettings } from '../workspace/settings.js';
import type { CheckedDocument } from './pipeline.js';

/** What a run needs to know about the document, gathered by the session. */
export interface RunInput {
  uri: string;
  text: string;
  settings: BayesSettings;
  envOptions: NodeEnvironmentOptions;
  checked: CheckedDocument;
}

export interface RunSchedulerHost {
  connection: Connection;
  canReportProgress(): boolean;
  onRunState(uri: string, state: RunState): void;
  onRunFinished(record: RunRecord): void;
}

/** How long a run may go quietly before it shows progress. */
const PROGRESS_AFTER_MS = 1000;

export class RunScheduler {
  private readonly jobs = new Map<string, RunJob>();
  /** Counts run requests per document, so a request overtaken while its cache key is computed is dropped. */
  private readonly generations = new Map<string, number>();
  readonly cache = new RunCache();

  constructor(
    private readonly host: RunSchedulerHost,
    private readonly workerPath?: string,
  ) {}

  async run(input: RunInput): Promise<RunState> {
    this.cancel(input.uri);
    const generation = (this.generations.get(input.uri) ?? 0) + 1;
    this.generations.set(input.uri, generation);
    const { documentPath, allowedRoots } = confinementOf(input.envOptions);
    const key = await this.cache.key(
      input.text,
      input.checked.parse.ast,
      documentPath,
      allowedRoots,
      JSON.stringify(input.settings),
      nodeFiles(input.envOptions),
    );
    // A newer run (or a cancel) came while the files were stamped: this one is dropped.
    if (this.generations.get(input.uri) !== generation) return 'cancelled';
    const hit = this.cache.get(key);
    if (hit) {
      this.host.onRunFinished({ uri: input.uri, text: input.text, state: 'done', result: hit, cached: true });
      return 'done';
    }
    const progress = new DelayedProgress(this.host, () => this.cancel(input.uri));
    const job = startRunJob(
      { text: input.text, file: input.uri, env: input.envOptions, budgets: budgetsFor(input.settings.run.memoryMb) },
      {
        timeoutMs: input.settings.run.timeoutSeconds * 1000,
        memoryMb: input.settings.run.memoryMb,
        onProgress: (fraction, message) => progress.report(fraction, message),
        workerPath: this.workerPath,
      },
    );
    this.jobs.set(input.uri, job);
    this.host.onRunState(input.uri, 'running');
    let outcome: RunOutcome;
    try {
      outcome = await job.outcome;
    } finally {
      progress.done();
      if (this.jobs.get(input.uri) === job) this.jobs.delete(input.uri);
    }
    if (outcome.status === 'cancelled') {
      this.host.onRunState(input.uri, 'cancelled');
      return 'cancelled';
    }
    if (outcome.status === 'done') {
      this.cache.set(key, outcome.result);
      this.host.onRunFinished({
        uri: input.uri,
        text: input.text,
        state: 'done',
        result: outcome.result,
        cached: false,
      });
      return 'done';
    }
    const result = failedRun(input, outcome.message);
    this.host.onRunFinished({ uri: input.uri, text: input.text, state: 'failed', result, cached: false });
    return 'failed';
  }

  /** Stops the document's run, if one is going (a newer run, a close, or the user). */
  cancel(uri: string): void {
    this.generations.set(uri, (this.generations.get(uri) ?? 0) + 1);
    const job = this.jobs.get(uri);
    if (!job) return;
    this.jobs.delete(uri);
    job.cancel();
  }

  dispose(): void {
    for (const uri of [...this.jobs.keys()]) this.cancel(uri);
  }
}

/** A run that ended without results: the check's diagnostics plus why it stopped, on line 1. */
function failedRun(input: RunInput, message: string): RunResult {
  const first = input.text.split('\n', 1)[0] ?? '';
  const failure: Diagnostic = {
    severity: 'error',
    code: 'run-failed',
    message,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: first.replace(/\r$/, '').length } },
  };
  return {
    version: RUN_RESULT_VERSION,
    file: input.uri,
    diagnostics: [failure, ...input.checked.diagnostics],
    results: [],
  };
}

/**
 * `$/progress` for a run, begun only when the run outlasts PROGRESS_AFTER_MS so quick runs do
 * not flash a notification. Cancelling it in the editor cancels the run.
 */
class DelayedProgress {
  private reporter?: WorkDoneProgressServerReporter;
  private finished = false;
  private last: { fraction: number; message: string } = { fraction: 0, message: 'running' };
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly host: RunSchedulerHost,
    private readonly onCancel: () => void,
  ) {
    this.timer = setTimeout(() => void this.begin(), PROGRESS_AFTER_MS);
  }

  private async begin(): Promise<void> {
    if (this.finished || !this.host.canReportProgress()) return;
    let reporter: WorkDoneProgressServerReporter;
    try {
      reporter = await this.host.connection.window.createWorkDoneProgress();
    } catch {
      return; // the client declined: run on without progress
    }
    if (this.finished) return void reporter.done();
    this.reporter = reporter;
    reporter.token.onCancellationRequested(() => this.onCancel());
    reporter.begin('Bayes: running the model', Math.round(this.last.fraction * 100), this.last.message, true);
  }

  report(fraction: number, message: string): void {
    this.last = { fraction, message };
    this.reporter?.report(Math.round(fraction * 100), message);
  }

  done(): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.reporter?.done();
  }
}
