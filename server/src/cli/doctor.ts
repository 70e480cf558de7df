/**
 * `bayes doctor`: what a bug report needs, in one paste — the version and build, Node and V8,
 * the platform, the machine's memory and cores, and the memory budget tables are checked against.
 */
import { arch, availableParallelism, freemem, platform, release, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { UsageError, type CliCommand } from './command.js';
import { cliBudgets } from './limits.js';
import { BUILD, VERSION } from './version.js';

const MB = 2 ** 20;

/** The report's lines, "name: value". */
export function doctorReport(): [string, string][] {
  const b = cliBudgets;
  return [
    ['bayes', `${VERSION} (engine build ${BUILD})`],
    ['node', `${process.version} (V8 ${process.versions.v8})`],
    ['platform', `${platform()} ${release()} ${arch()}`],
    ['cores', `${availableParallelism()}`],
    ['memory', `${Math.round(totalmem() / MB)} MB total, ${Math.round(freemem() / MB)} MB free`],
    ['heap limit', `${Math.round(getHeapStatistics().heap_size_limit / MB)} MB (V8)`],
    [
      'memory budget',
      `${Math.round(b.memoryBytes / MB)} MB: tables up to ${b.maxTableEntries.toLocaleString('en')} entries, ` +
        `${b.maxTotalEntries.toLocaleString('en')} in one structure, ${b.maxSamples.toLocaleString('en')} samples (--max-memory changes it)`,
    ],
    [
      'terminal',
      `stdout ${process.stdout.isTTY ? 'is' : 'is not'} a terminal, stderr ${process.stderr.isTTY ? 'is' : 'is not'}`,
    ],
    ['NO_COLOR', process.env.NO_COLOR === undefined ? 'not set' : 'set'],
  ];
}

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'print what a bug report needs: version and build, Node, platform, memory and the memory budget',
  usage: `bayes doctor

Prints the version and the engine's build, Node and V8, the platform, cores and memory, and the
memory budget that tables are checked against (set by --max-memory). Paste it into a bug report.`,
  async run(args, io) {
    if (args.length) throw new UsageError(`takes no arguments, not '${args[0]}'`);
    const lines = doctorReport();
    const width = Math.max(...lines.map(([k]) => k.length));
    io.out(lines.map(([k, v]) => `${(k + ':').padEnd(width + 1)} ${v}`).join('\n') + '\n');
    return 0;
  },
};
