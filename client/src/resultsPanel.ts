/**
 * The results webview: one panel per model document, beside the editor. It is fed by the
 * server's `bayes/runResult` notification (and `bayes/lastResult` when it opens or is restored
 * after a reload), reveals a variable's table when a graph node is clicked, and writes the
 * charts and numbers the webview asks to save or copy.
 */
import {
  env,
  languages,
  Position,
  Range,
  WorkspaceEdit,
  Selection,
  TextEditorRevealType,
  Uri,
  ViewColumn,
  window,
  workspace,
  DiagnosticSeverity,
  type Disposable,
  type TextDocument,
  type WebviewOptions,
  type WebviewPanel,
} from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  RUN_RESULT_VERSION,
  type HostMessage,
  type PanelState,
  type PanelView,
  type MarginalsRequestMessage,
  type DecisionsRequestMessage,
  type DiagnosisRequestMessage,
  type RevealMessage,
  type SaveMessage,
  type ShowMessage,
  type WebviewMessage,
  type WriteObserveMessage,
} from '../../server/src/protocol/webviewMessages.js';
import { checkWebviewMessage } from '../../server/src/protocol/webviewMessageCheck.js';
import { makeNonce, panelHtml } from './panelHtml.js';
import { tableOffset } from './tableOffset.js';
import { expectLinesOn, writeWarning } from './observeWrite.js';
import type {
  DecisionsReply,
  DiagnosisReply,
  LastResult,
  MarginalsReply,
  RunResultMessage,
} from '../../server/src/protocol/messages.js';
import { Method } from '../../server/src/protocol/methods.js';

export const RESULTS_VIEW_TYPE = 'bayes.results';

export interface PanelHost {
  extensionUri: Uri;
  client(): LanguageClient | undefined;
  /** Where a dropped panel message is reported (the Bayes output channel); default the console. */
  log?(line: string): void;
}

/** What both server messages tell of a finished run. */
type FinishedRun = Pick<ShowMessage, 'state' | 'cached' | 'result'>;

export class ResultsPanel {
  private static readonly panels = new Map<string, ResultsPanel>();
  private ready = false;
  private last: ShowMessage | undefined;
  private focus: { view: PanelView; network?: string };
  private readonly disposables: Disposable[] = [];

  static createOrShow(host: PanelHost, model: Uri, view: PanelView, network?: string): void {
    const existing = ResultsPanel.panels.get(model.toString());
    if (existing) {
      existing.panel.reveal(undefined, true);
      existing.setFocus(view, network);
      return;
    }
    const panel = window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      title(model),
      { viewColumn: ViewColumn.Beside, preserveFocus: true },
      // Hidden panels are torn down and redrawn from their saved state when shown again.
      { ...webviewOptions(host.extensionUri), retainContextWhenHidden: false },
    );
    new ResultsPanel(panel, host, model, { view, network });
  }

  /** Restores a panel after a window reload (the serializer hands back the webview's saved state). */
  static revive(panel: WebviewPanel, host: PanelHost, state: PanelState | undefined): void {
    if (!state?.uri) return panel.dispose();
    panel.webview.options = webviewOptions(host.extensionUri);
    new ResultsPanel(panel, host, Uri.parse(state.uri), { view: state.view ?? 'results' });
  }

  /** A run finished: the model's panel, if open, shows it. */
  static runFinished(message: RunResultMessage): void {
    ResultsPanel.panels.get(message.uri)?.show(message);
  }

  /** The models whose results panel is open. */
  static openModels(): string[] {
    return [...ResultsPanel.panels.keys()];
  }

  static problemsChanged(uris: readonly Uri[]): void {
    for (const uri of uris) ResultsPanel.panels.get(uri.toString())?.sendProblems();
  }

  private constructor(
    private readonly panel: WebviewPanel,
    private readonly host: PanelHost,
    private readonly model: Uri,
    focus: { view: PanelView; network?: string },
  ) {
    this.focus = focus;
    ResultsPanel.panels.set(model.toString(), this);
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    // Listen before loading the page, so its first 'ready' is heard.
    panel.webview.onDidReceiveMessage((m: unknown) => this.check(m), null, this.disposables);
    panel.webview.html = this.html();
  }

  private html(): string {
    const file = (name: string) =>
      this.panel.webview.asWebviewUri(Uri.joinPath(this.host.extensionUri, 'dist', name)).toString();
    return panelHtml({
      cspSource: this.panel.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: file('webview.js'),
      styleUri: file('webview.css'),
      title: title(this.model),
    });
  }

  private post(message: HostMessage): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private show(run: FinishedRun): void {
    this.last = this.showMessage(run);
    this.post(this.last);
  }

  /** The webview's `show` message for a finished run (from `bayes/runResult` or `bayes/lastResult`). */
  private showMessage(run: FinishedRun): ShowMessage {
    const precision = workspace.getConfiguration('bayes', this.model).get<number>('precision', 4);
    return {
      type: 'show',
      version: RUN_RESULT_VERSION,
      uri: this.model.toString(),
      model: fileName(this.model),
      state: run.state,
      cached: run.cached,
      result: run.result,
      precision,
    };
  }

  private setFocus(view: PanelView, network?: string): void {
    this.focus = { view, network };
    this.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: this.model.toString(), view, network });
  }

  private sendProblems(): void {
    const errors = languages.getDiagnostics(this.model).filter((d) => d.severity === DiagnosticSeverity.Error).length;
    this.post({ type: 'problems', version: RUN_RESULT_VERSION, errors });
  }

  /** A message from the page, acted on only when it is one the host knows, well typed. */
  private check(m: unknown): void {
    const checked = checkWebviewMessage(m);
    if ('message' in checked) return void this.receive(checked.message);
    const line = `Bayes results panel: dropped a message: ${checked.invalid}`;
    if (this.host.log) this.host.log(line);
    else console.warn(line);
  }

  private async receive(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        return this.onReady();
      case 'reveal':
        return this.reveal(m);
      case 'save':
        return this.save(m);
      case 'copy':
        return void env.clipboard.writeText(m.text);
      case 'marginals':
        return this.marginals(m);
      case 'decisions':
        return this.decisions(m);
      case 'diagnosis':
        return this.diagnosis(m);
      case 'writeObserve':
        return this.writeObserve(m);
    }
  }

  /** Clicked evidence: every marginal from the server's warm compiled network. */
  private async marginals(m: MarginalsRequestMessage): Promise<void> {
    const client = this.host.client();
    const params = {
      uri: this.model.toString(),
      network: m.network,
      evidence: m.evidence,
      likelihoods: m.likelihoods,
      soft: m.soft,
    };
    const reply: MarginalsReply = client
      ? await client.sendRequest<MarginalsReply>(Method.marginals, params).catch((e: Error) => ({ error: e.message }))
      : { error: 'the language server is not running' };
    this.post({ type: 'marginals', version: RUN_RESULT_VERSION, id: m.id, network: m.network, reply });
  }

  /** A diagnosis target and the evidence: the ranking and the data conflict from the server (`bayes/diagnosis`). */
  private async diagnosis(m: DiagnosisRequestMessage): Promise<void> {
    const client = this.host.client();
    const { type: _, id, ...params } = m;
    const reply: DiagnosisReply = client
      ? await client
          .sendRequest<DiagnosisReply>(Method.diagnosis, { uri: this.model.toString(), ...params })
          .catch((e: Error) => ({ error: e.message }))
      : { error: 'the language server is not running' };
    this.post({ type: 'diagnosis', version: RUN_RESULT_VERSION, id, network: m.network, reply });
  }

  /** An influence diagram's evidence: the expected utilities from the server (`bayes/decisions`). */
  private async decisions(m: DecisionsRequestMessage): Promise<void> {
    const client = this.host.client();
    const params = { uri: this.model.toString(), network: m.network, evidence: m.evidence };
    const reply: DecisionsReply = client
      ? await client.sendRequest<DecisionsReply>(Method.decisions, params).catch((e: Error) => ({ error: e.message }))
      : { error: 'the language server is not running' };
    this.post({ type: 'decisions', version: RUN_RESULT_VERSION, id: m.id, network: m.network, reply });
  }

  /**
   * "Write evidence as observe lines": one edit at the end of the model, undoable like any other.
   * When `expect` lines read the same network, they are listed first and the edit waits for a yes.
   */
  private async writeObserve(m: WriteObserveMessage): Promise<void> {
    const document = await workspace.openTextDocument(this.model);
    const expects = expectLinesOn(document.getText(), m.network);
    if (expects.length) {
      const write = 'Write';
      const answer = await window.showWarningMessage(
        'Bayes: write the evidence as observe lines?',
        { modal: true, detail: writeWarning(m.lines.length, fileName(this.model), m.network, expects) },
        write,
      );
      if (answer !== write) return;
    }
    const end = document.lineAt(document.lineCount - 1);
    const lead = end.text.length > 0 ? '\n' : '';
    const edit = new WorkspaceEdit();
    edit.insert(this.model, new Position(end.lineNumber, end.text.length), `${lead}${m.lines.join('\n')}\n`);
    if (await workspace.applyEdit(edit)) {
      const lines = `${m.lines.length} observe line${m.lines.length === 1 ? '' : 's'}`;
      void window.showInformationMessage(`Bayes: wrote ${lines} into ${fileName(this.model)}.`);
    } else void window.showWarningMessage('Bayes: the observe lines could not be written.');
  }

  /** The webview (re)loaded: send it the newest run, asking the server when none came yet. */
  private async onReady(): Promise<void> {
    this.ready = true;
    if (!this.last) {
      const last = await this.host
        .client()
        ?.sendRequest<LastResult | null>(Method.lastResult, { uri: this.model.toString() })
        .catch(() => null);
      if (last && !this.last) this.last = this.showMessage(last);
    }
    if (this.last) this.post(this.last);
    this.sendProblems();
    this.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: this.model.toString(), ...this.focus });
  }

  /**
   * Shows the variable's `P(…)` table in the model's editor, asked for explicitly (a button in the
   * node's detail view, or Ctrl/Cmd+click on a node). Focus stays in the panel (`preserveFocus`):
   * a key pressed there must never land in the editor, where it would type over the selected
   * table. An imported network's variable has no table here: a notification says so without
   * opening or moving any editor (the panel keeps its size).
   */
  private async reveal(m: RevealMessage): Promise<void> {
    const document = await workspace.openTextDocument(this.model);
    const range = m.range
      ? new Range(m.range.start.line, m.range.start.character, m.range.end.line, m.range.end.character)
      : tableRange(document.getText(), m.variable, document);
    if (!range)
      return void window.showInformationMessage(
        `Bayes: ${m.variable} has no table in this file (network ${m.network} is imported).`,
      );
    const visible = window.visibleTextEditors.find((e) => e.document.uri.toString() === this.model.toString());
    const editor = await window.showTextDocument(document, {
      viewColumn: visible?.viewColumn ?? ViewColumn.One,
      preserveFocus: true,
    });
    editor.selection = new Selection(range.start, range.end);
    editor.revealRange(range, TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async save(m: SaveMessage): Promise<void> {
    const target = await window.showSaveDialog({
      defaultUri: Uri.joinPath(this.model, '..', `${m.name}.${m.format}`),
      filters: m.format === 'svg' ? { SVG: ['svg'] } : { PNG: ['png'] },
    });
    if (!target) return;
    await workspace.fs.writeFile(
      target,
      m.format === 'svg' ? new TextEncoder().encode(m.data) : Buffer.from(m.data, 'base64'),
    );
    void window.showInformationMessage(`Bayes: saved the chart to ${target.fsPath}.`);
  }

  private dispose(): void {
    ResultsPanel.panels.delete(this.model.toString());
    for (const d of this.disposables) d.dispose();
  }
}

/** The variable's `P(…)` table in the document, found by text. */
function tableRange(text: string, variable: string, document: TextDocument): Range | undefined {
  const at = tableOffset(text, variable);
  return at ? new Range(document.positionAt(at.start), document.positionAt(at.end)) : undefined;
}

function fileName(model: Uri): string {
  return model.path.split('/').pop() || model.toString();
}

function title(model: Uri): string {
  return `Bayes: ${fileName(model)}`;
}

function webviewOptions(extensionUri: Uri): WebviewOptions {
  return { enableScripts: true, localResourceRoots: [Uri.joinPath(extensionUri, 'dist')] };
}
