/**
 * The models' `expect` lines in VS Code's Test Explorer: every .bayes file of the workspace is a
 * test item and each of its expect statements a child test (ranges from the server's parse,
 * `bayes/expects`), run from the Testing view or the gutter through the same run as the Run
 * command, a failed expect showing its expected and actual values (TestMessage.diff), each with its
 * query's time. The run profile supports continuous runs: the files it covers run again on save.
 * Shared by the desktop and the web build (activation.ts); on the web the run is the worker's.
 */
import {
  Location,
  Position,
  Range,
  TestMessage,
  TestRunProfileKind,
  TestRunRequest,
  tests,
  Uri,
  workspace,
  type CancellationToken,
  type Disposable,
  type TestController,
  type TestItem,
  type TestRun,
  type TestRunProfile,
} from 'vscode';
import { Method, RUN_COMMAND } from '../../server/src/protocol/methods.js';
import type { ExpectItem, LastResult } from '../../server/src/protocol/messages.js';
import { expectCases, type ExpectCase } from '../../server/src/protocol/expectCases.js';

/** What the explorer needs of a language client (the desktop's and the web's alike). */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export function registerTestExplorer(client: () => RequestSender | undefined): Disposable[] {
  const controller = tests.createTestController('bayes.expectations', 'Bayes expectations');
  const explorer = new ExpectExplorer(controller, client);
  controller.resolveHandler = (item) => (item ? explorer.loadExpects(item) : explorer.discover());
  controller.refreshHandler = () => explorer.discover();
  const profile = controller.createRunProfile(
    'Run expectations',
    TestRunProfileKind.Run,
    (request, token) => explorer.run(request, token),
    true,
    undefined,
    true,
  );
  explorer.profile = profile;
  const watcher = workspace.createFileSystemWatcher('**/*.bayes');
  return [
    controller,
    watcher,
    watcher.onDidCreate((uri) => explorer.fileItem(uri)),
    watcher.onDidDelete((uri) => controller.items.delete(uri.toString())),
    workspace.onDidSaveTextDocument((d) => {
      const item = controller.items.get(d.uri.toString());
      if (item) void explorer.loadExpects(item);
    }),
  ];
}

class ExpectExplorer {
  profile: TestRunProfile | undefined;
  constructor(
    private readonly controller: TestController,
    private readonly client: () => RequestSender | undefined,
  ) {}

  async discover(): Promise<void> {
    const found = await workspace.findFiles('**/*.bayes', '**/node_modules/**');
    for (const uri of found) this.fileItem(uri);
  }

  fileItem(uri: Uri): TestItem {
    const id = uri.toString();
    const known = this.controller.items.get(id);
    if (known) return known;
    const item = this.controller.createTestItem(id, workspace.asRelativePath(uri), uri);
    item.canResolveChildren = true;
    this.controller.items.add(item);
    return item;
  }

  /** The file's expect statements as its children (opening the document makes the server parse it). */
  async loadExpects(file: TestItem): Promise<void> {
    const client = this.client();
    if (!file.uri || !client) return;
    file.busy = true;
    try {
      await workspace.openTextDocument(file.uri);
      const expects = await client.sendRequest<ExpectItem[]>(Method.expects, { uri: file.uri.toString() });
      file.children.replace(expects.map((e) => this.expectItem(file.uri!, e)));
      file.error = undefined;
    } catch (e) {
      file.error = `cannot read the expectations: ${(e as Error).message}`;
    } finally {
      file.busy = false;
    }
  }

  private expectItem(uri: Uri, e: ExpectItem): TestItem {
    const item = this.controller.createTestItem(`${uri.toString()}#${e.range.start.line + 1}`, e.source, uri);
    item.range = new Range(
      new Position(e.range.start.line, e.range.start.character),
      new Position(e.range.end.line, e.range.end.character),
    );
    return item;
  }

  async run(request: TestRunRequest, token: CancellationToken): Promise<void> {
    if (request.continuous) {
      // Watch: each save of a covered file runs its expectations again, until the user stops watching.
      const watching = request.include;
      const saved = workspace.onDidSaveTextDocument(async (d) => {
        const file = this.controller.items.get(d.uri.toString());
        if (!file || (watching && !watching.some((i) => i === file || i.parent === file))) return;
        await this.loadExpects(file);
        const include = watching ? watching.filter((i) => i === file || i.parent === file) : [file];
        await this.execute(new TestRunRequest(include, request.exclude, this.profile), token);
      });
      token.onCancellationRequested(() => saved.dispose());
      return;
    }
    await this.execute(request, token);
  }

  /** Runs each file the request covers once and reports its requested expects. */
  private async execute(request: TestRunRequest, token: CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    try {
      if (!request.include && this.controller.items.size === 0) await this.discover();
      const byFile = new Map<TestItem, Set<TestItem> | 'all'>();
      const roots: TestItem[] = [];
      this.controller.items.forEach((i) => roots.push(i));
      for (const item of request.include ?? roots) {
        const file = item.parent ?? item;
        const chosen = byFile.get(file);
        if (item === file) byFile.set(file, 'all');
        else if (chosen === undefined) byFile.set(file, new Set([item]));
        else if (chosen !== 'all') chosen.add(item);
      }
      for (const [file, chosen] of byFile) {
        if (token.isCancellationRequested) break;
        if (request.exclude?.includes(file)) continue;
        await this.runFile(run, file, chosen, request.exclude ?? []);
      }
    } finally {
      run.end();
    }
  }

  private async runFile(run: TestRun, file: TestItem, chosen: Set<TestItem> | 'all', exclude: readonly TestItem[]) {
    await this.loadExpects(file);
    const items: TestItem[] = [];
    file.children.forEach((c) => {
      if ((chosen === 'all' || chosen.has(c)) && !exclude.includes(c)) items.push(c);
    });
    for (const i of items) run.started(i);
    const client = this.client();
    if (!client || !file.uri) {
      for (const i of items) run.errored(i, new TestMessage('the Bayes language server is not running'));
      return;
    }
    const uri = file.uri.toString();
    const state = await client.sendRequest<string>('workspace/executeCommand', {
      command: RUN_COMMAND,
      arguments: [uri],
    });
    const last = await client.sendRequest<LastResult | null>(Method.lastResult, { uri });
    if (!last || state === 'untrusted' || state === 'unknown-document') {
      const why =
        state === 'untrusted' ? 'the workspace is not trusted: models are checked, not run' : 'the model did not run';
      for (const i of items) run.errored(i, new TestMessage(why));
      return;
    }
    const cases = expectCases(last.result, (f, d) => `${f}:${d.range.start.line + 1}: ${d.severity}: ${d.message}`);
    const fileErrors = cases.filter((c) => c.name === last.result.file && c.status === 'error');
    for (const c of fileErrors) run.appendOutput(`${c.message ?? ''}\r\n`.replace(/\n/g, '\r\n'));
    for (const item of items)
      this.report(
        run,
        item,
        cases.find((c) => c.line === item.range!.start.line + 1 && c.name !== last.result.file),
      );
  }

  private report(run: TestRun, item: TestItem, c: ExpectCase | undefined): void {
    if (!c) return void run.skipped(item);
    const where = new Location(item.uri!, item.range!);
    if (c.status === 'passed') return void run.passed(item, c.timeMs);
    if (c.status === 'failed') {
      const message = TestMessage.diff(c.message ?? 'the expectation fails', c.expected, String(c.actual));
      message.location = where;
      return void run.failed(item, message, c.timeMs);
    }
    const message = new TestMessage(c.message ?? 'not evaluated');
    message.location = where;
    run.errored(item, message);
  }
}
