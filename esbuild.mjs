// Bundles the extension client, the language server, the run worker, the CLI and the webview.
// Chevrotain is ESM-only; bundling it into CommonJS lets VS Code and Node 20 `require` the result.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };
const node = {
  ...common,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // import.meta.url has no meaning in a CJS bundle; code that needs its own location uses __filename.
  define: { 'import.meta.url': 'undefined' },
};

// The CLI is two files so that `bayes --help` parses a small one: dist/cli.cjs (the dispatcher,
// server/src/cli.ts) loads dist/cli-commands.cjs (every command) when a command runs, and that
// file takes the modules both need (command.ts, limits.ts) from dist/cli.cjs.
const COMMAND_FILES = /^\.\/(check|run|lsp|marginals|convert|learn|structure|mixture)\.js$/;
const cliDispatcher = {
  name: 'cli-dispatcher',
  setup(build) {
    build.onResolve({ filter: COMMAND_FILES }, (args) =>
      args.importer.endsWith('commands.ts') ? { path: './cli-commands.cjs', external: true } : undefined,
    );
  },
};
const cliCommands = {
  name: 'cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(command|limits)\.js$/ }, (args) =>
      /[\\/]server[\\/]src[\\/]cli[\\/]/.test(args.importer) ? { path: './cli.cjs', external: true } : undefined,
    );
  },
};

const builds = [
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.cjs', external: ['vscode'] },
  { ...node, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.cjs' },
  { ...node, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.cjs', plugins: [cliDispatcher] },
  { ...node, entryPoints: ['server/src/cli/allCommands.ts'], outfile: 'dist/cli-commands.cjs', plugins: [cliCommands] },
  { ...node, entryPoints: ['server/src/run/worker.ts'], outfile: 'dist/worker.cjs' },
  { ...node, entryPoints: ['server/src/cli/bootstrapWorker.ts'], outfile: 'dist/bootstrapWorker.cjs' },
  {
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    entryPoints: ['webview/src/main.ts'],
    outfile: 'dist/webview.js',
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
