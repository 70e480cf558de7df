/**
 * Code lenses: Run and Show results at the top of the file (with the last run's summary), Show
 * graph above each network. Run is the server's command, so it works in any editor; the two
 * views are the VS Code client's commands.
 */
import type { CodeLens } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import type { RunRecord } from '../protocol/messages.js';
import { RUN_COMMAND } from '../protocol/methods.js';
import { summary } from '../run/runSummary.js';

/** The command any editor sends to run a model: arguments `[uri]`. */

export function codeLenses(file: A.BayesFile, uri: string, last: RunRecord | undefined): CodeLens[] {
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lenses: CodeLens[] = [
    { range: top, command: { title: '▶ Run', command: RUN_COMMAND, arguments: [uri] } },
    { range: top, command: { title: showResultsTitle(last), command: 'bayes.showResults', arguments: [uri] } },
  ];
  for (const s of file.statements) {
    if (s.kind === 'network' || s.kind === 'import') {
      lenses.push({
        range: s.range,
        command: { title: 'Show graph', command: 'bayes.showGraph', arguments: [uri, s.name.text] },
      });
    }
  }
  return lenses;
}

function showResultsTitle(last: RunRecord | undefined): string {
  if (!last) return 'Show results';
  const s = summary(last);
  const time = s.elapsedMs !== undefined ? `, ${s.elapsedMs.toFixed(0)} ms` : '';
  return `Show results (${s.queries} results${s.failures ? `, ${s.failures} failures` : ''}${time})`;
}
