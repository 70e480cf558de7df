/**
 * A structure search on the terminal (`bayes structure`, discrete and Gaussian): one progress
 * line with the moves, nodes or tests done and the current score, and Ctrl+C stopping the
 * search at once with a one-line summary of how far it got (see cli/progress.ts for how).
 */
import type { SearchProgress } from '../engine/structure/searchProgress.js';
import type { CliIO } from './command.js';
import { counted, startProgress, untilInterrupted, type Progress } from './progress.js';

/**
 * Runs `search` with a progress line labelled by the method; its answer, or the exit code 130
 * after printing `bayes structure: interrupted after …` when Ctrl+C stopped it.
 */
export function searchOnTerminal<T>(io: CliIO, method: string, search: (progress: SearchProgress) => T): T | number {
  const line = startProgress(io, method, { unit: method === 'pc' ? 'tests' : 'moves' });
  let nodes: Progress | undefined;
  let summary = 'the search started';
  const progress: SearchProgress = {
    move(moves, score) {
      line.update(moves, `score ${score.toFixed(1)}`);
      summary = `${counted(moves)} search steps (score ${score.toFixed(1)})`;
    },
    node(done, n, score) {
      // K2's unit is a node, of a known number: its own line shows the time left.
      nodes ??= startProgress(io, method, { total: n, unit: 'nodes' });
      nodes.update(done, `score ${score.toFixed(1)}`);
      summary = `${counted(done)} of ${counted(n)} nodes (score ${score.toFixed(1)})`;
    },
    test(tests, level) {
      line.update(tests, `conditioning sets of ${level}`);
      summary = `${counted(tests)} independence tests (conditioning sets of ${level})`;
    },
  };
  return untilInterrupted(
    io,
    'structure',
    () => summary,
    () => search(progress),
    () => [line, nodes],
  );
}
