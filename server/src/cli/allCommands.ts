/**
 * Every command module, for the CLI bundle's second file (dist/cli-commands.cjs, esbuild.mjs):
 * dist/cli.cjs holds only the dispatcher and loads this file when a command runs.
 */
export { checkCommand } from './check.js';
export { runCommand } from './run.js';
export { lspCommand } from './lsp.js';
export { marginalsCommand } from './marginals.js';
export { convertCommand } from './convert.js';
export { learnCommand } from './learn.js';
export { structureCommand } from './structure.js';
export { mixtureCommand } from './mixture.js';
export { predictCommand } from './predict.js';
export { validateCommand } from './validate.js';
export { testCommand } from './test.js';
export { filterCommand } from './filter.js';
export { doctorCommand } from './doctor.js';
export { completionCommand } from './completion.js';
