/**
 * The CLI's own start-up: `bayes --help` minus `node -e 0`, in alternating fresh processes
 * (wall time, and CPU time user + system, which a busy machine disturbs less). Issue 18's goal:
 * ≤ 0.05 s; then `bayes marginals examples/data/asia.xml` the same way (issue 33: a command that
 * does inference ≤ 0.1 s over `node -e 0`). The run prints FAILED and exits 1 when the median difference is over it.
 * Needs `npm run build` first. Usage: node --import tsx bench/cli-startup.ts [--rounds N]
 */
import { parseArgs } from 'node:util';
import { bayesBin, freshProcess, goal, loadAverage, printFreshProcess, summary } from './support/report.js';

// BAYES_CLI: another build to compare (e.g. a copy of an older dist/cli.cjs).
const bin = process.env.BAYES_CLI ?? bayesBin;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);

console.log(
  `bench/cli-startup.ts ${new Date().toISOString()}, load average ${loadAverage()}, ` +
    `${rounds} alternating rounds; min / median / max`,
);
const help = freshProcess([bin, '--help'], rounds);
printFreshProcess('bayes --help', help);
goal('start-up (median wall difference)', help.difference.wall.median, 0.05, 's', 3);
// A command that does inference, on a network so small that its start is all there is to time:
// dist/cli-network.cjs (the interchange formats' fast path, from its V8 code cache) loaded, asia
// read, 8 marginals. Issue 33: ≤ 0.1 s.
const marginals = freshProcess([bin, 'marginals', 'examples/data/asia.xml', '-e', 'xray=yes', '--json'], rounds);
printFreshProcess('bayes marginals', marginals);
goal('inference command start-up (median wall difference)', marginals.difference.wall.median, 0.1, 's', 3);
summary('bench:cli-startup');
