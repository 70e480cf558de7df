/** Every `bayes` sub-command; add a command by adding its file and one line here. */
import type { CliCommand } from './command.js';
import { checkCommand } from './check.js';
import { runCommand } from './run.js';
import { lspCommand } from './lsp.js';
import { marginalsCommand } from './marginals.js';
import { convertCommand } from './convert.js';
import { learnCommand } from './learn.js';
import { structureCommand } from './structure.js';
import { mixtureCommand } from './mixture.js';

export const commands: CliCommand[] = [
  checkCommand,
  runCommand,
  lspCommand,
  marginalsCommand,
  convertCommand,
  learnCommand,
  structureCommand,
  mixtureCommand,
];
