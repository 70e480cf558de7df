/** Folding: every statement that spans lines (networks, tables, data, hypothesis spaces) and runs of comments. */
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';

export function foldingRanges(file: A.BayesFile, text: string): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const visit = (statements: A.Statement[]) => {
    for (const s of statements) {
      // The closing line stays visible, as editors do for braces.
      if (s.range.end.line > s.range.start.line)
        ranges.push({ startLine: s.range.start.line, endLine: s.range.end.line - 1 });
      if (s.kind === 'network') visit(s.statements);
    }
  };
  visit(file.statements);
  for (const run of commentRuns(text)) ranges.push(run); // not a spread: a file may have 10^6 comment runs
  return ranges
    .filter((r) => r.endLine > r.startLine || r.kind === FoldingRangeKind.Comment)
    .sort((a, b) => a.startLine - b.startLine);
}

/** Three or more consecutive `//` lines fold as one comment. */
function commentRuns(text: string): FoldingRange[] {
  const runs: FoldingRange[] = [];
  const lines = text.split('\n');
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const comment = i < lines.length && lines[i].trimStart().startsWith('//');
    if (comment && start < 0) start = i;
    if (!comment && start >= 0) {
      if (i - start >= 3) runs.push({ startLine: start, endLine: i - 1, kind: FoldingRangeKind.Comment });
      start = -1;
    }
  }
  return runs;
}
