/**
 * The read-only `bayes-results:` documents: `…/results.md?<model uri>` shows the last run,
 * `…/graph.md?<model uri>#<network>` the networks. They refresh when a run finishes.
 */
import { EventEmitter, Uri, type TextDocumentContentProvider } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { graphMarkdown, resultsMarkdown, type LastResult, type NetworkSummary } from './views.js';

export const RESULTS_SCHEME = 'bayes-results';

export function resultsUri(model: Uri, view: 'results' | 'graph', network?: string): Uri {
  const name = model.path.split('/').pop() ?? 'model';
  return Uri.from({ scheme: RESULTS_SCHEME, path: `/${name}.${view}.md`, query: model.toString(), fragment: network ?? '' });
}

export class ResultsProvider implements TextDocumentContentProvider {
  private readonly changed = new EventEmitter<Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Set<string>();

  constructor(private readonly client: () => LanguageClient | undefined) {}

  async provideTextDocumentContent(uri: Uri): Promise<string> {
    this.open.add(uri.toString());
    const model = uri.query;
    const name = Uri.parse(model).path.split('/').pop() ?? model;
    const client = this.client();
    if (!client) return 'The Bayes language server is not running.';
    if (uri.path.endsWith('.graph.md')) {
      return graphMarkdown(name, await client.sendRequest<NetworkSummary[]>('bayes/networks', { uri: model }), uri.fragment || undefined);
    }
    return resultsMarkdown(name, await client.sendRequest<LastResult | null>('bayes/lastResult', { uri: model }));
  }

  /** A run of `model` finished: every open view of it is read again. */
  refresh(model: string): void {
    for (const u of this.open) if (Uri.parse(u).query === model) this.changed.fire(Uri.parse(u));
  }
}
