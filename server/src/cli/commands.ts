/**
 * Every `bayes` sub-command; add a command by adding its file and one line here. Each command's
 * module is loaded only when it runs (or prints its usage), so `bayes --help` and a command
 * that needs little do not initialise the parser, the engine and every other command first.
 * The summaries repeat the commands' own (a test checks they agree).
 */
import type { CliCommand, CliIO } from './command.js';

export interface CommandEntry {
  name: string;
  /** One line for `bayes --help` (the command's own `summary`). */
  summary: string;
  load(): Promise<CliCommand>;
  /**
   * A smaller module tried first for the common case it knows (its own bundle): it answers with
   * an exit code, or undefined to let the full command run.
   */
  fast?(args: string[]): Promise<{ run(args: string[], io: CliIO): Promise<number | undefined> }> | undefined;
}

export const commands: CommandEntry[] = [
  {
    name: 'check',
    summary: 'parse and check model files, printing file:line:col: severity: message',
    load: async () => (await import('./check.js')).checkCommand,
  },
  {
    name: 'run',
    summary: "run a model's learn, query and expect statements",
    load: async () => (await import('./run.js')).runCommand,
  },
  {
    name: 'lsp',
    summary: 'run the language server for other editors (--stdio)',
    load: async () => (await import('./lsp.js')).lspCommand,
  },
  {
    name: 'marginals',
    summary: 'posterior marginals of every variable of a network, given evidence',
    load: async () => (await import('./marginals.js')).marginalsCommand,
    // Network files in the interchange formats: formatMarginals.ts, without the language front
    // end; first, for a Hugin NET file, the smaller gaussianMarginals.ts (the NET reader and the
    // hybrid engine) in case it has continuous nodes. Neither is loaded for a `.bayes` model.
    fast: (args) => {
      if (args.some((a) => /\.bayes$/i.test(a))) return undefined;
      const formats = () => import('./formatMarginals.js').then((m) => m.formatMarginalsFastPath);
      if (!args.some((a) => /\.net$/i.test(a))) return formats();
      return import('./gaussianMarginals.js').then((m) => ({
        run: async (rest: string[], io: CliIO) =>
          (await m.gaussianFastPath.run(rest, io)) ?? (await formats()).run(rest, io),
      }));
    },
  },
  {
    name: 'convert',
    summary: 'convert a network between .bayes, BIF, XMLBIF, Hugin NET and UAI (by the file extensions)',
    load: async () => (await import('./convert.js')).convertCommand,
  },
  {
    name: 'learn',
    summary: 'learn the CPTs of a network from data (counting, EM or gradient ascent)',
    load: async () => (await import('./learn.js')).learnCommand,
  },
  {
    name: 'structure',
    summary: 'learn a network structure from data (PC, K2, hill climbing or tabu search; bootstrap arc strength)',
    load: async () => (await import('./structure.js')).structureCommand,
  },
  {
    name: 'mixture',
    summary: "fit a mixture of Gaussians by EM (full covariances, or Mitchell's known-σ k means)",
    load: async () => (await import('./mixture.js')).mixtureCommand,
  },
  {
    name: 'filter',
    summary: 'filtering, smoothing, the most likely sequence and forecasts of a network over time',
    load: async () => (await import('./filter.js')).filterCommand,
  },
  {
    name: 'predict',
    summary: 'predict a variable for every row of a data file (posterior, most probable value, log-likelihood)',
    load: async () => (await import('./predict.js')).predictCommand,
  },
  {
    name: 'validate',
    summary: 'score a network on data: accuracy, log loss, Brier, spherical payoff, ROC/AUC, calibration',
    load: async () => (await import('./validate.js')).validateCommand,
  },
  {
    name: 'test',
    summary: 'run every expect of the .bayes files found (folders recursed); JUnit, TAP or JSON reports',
    load: async () => (await import('./test.js')).testCommand,
  },
  {
    name: 'completion',
    summary: 'print a shell completion script for bash, zsh or fish (commands and their options)',
    load: async () => (await import('./completion.js')).completionCommand(commands),
  },
  {
    name: 'doctor',
    summary: 'print what a bug report needs: version and build, Node, platform, memory and the memory budget',
    load: async () => (await import('./doctor.js')).doctorCommand,
  },
];
