/** The status bar item: the last run of the active model (running / n results / failures / time); click shows results. */
import { StatusBarAlignment, window, type Disposable, type StatusBarItem } from 'vscode';
import type { RunStateMessage } from '../../server/src/protocol/messages.js';

export class RunStatus implements Disposable {
  private readonly item: StatusBarItem;
  private readonly states = new Map<string, RunStateMessage>();

  constructor() {
    this.item = window.createStatusBarItem('bayes.runStatus', StatusBarAlignment.Left, 10);
    this.item.name = 'Bayes run';
    this.item.command = 'bayes.showResults';
  }

  update(message: RunStateMessage): void {
    this.states.set(message.uri, message);
    this.show(window.activeTextEditor?.document.uri.toString());
  }

  /** Shows the state of the document now in front, or hides when it is not a model. */
  show(uri: string | undefined): void {
    const s = uri ? this.states.get(uri) : undefined;
    if (!s) return void this.item.hide();
    const time = s.elapsedMs !== undefined ? ` · ${s.elapsedMs.toFixed(0)} ms` : '';
    switch (s.state) {
      case 'running':
        this.item.text = '$(sync~spin) Bayes: running';
        break;
      case 'cancelled':
        this.item.text = '$(circle-slash) Bayes: cancelled';
        break;
      case 'failed':
        this.item.text = '$(error) Bayes: run failed';
        break;
      case 'done':
        this.item.text = s.failures
          ? `$(error) Bayes: ${s.queries} results · ${s.failures} failures${time}`
          : `$(check) Bayes: ${s.queries} results${time}${s.cached ? ' (cached)' : ''}`;
    }
    this.item.tooltip = 'Show the results of the last run';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
