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

const builds = [
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.cjs', external: ['vscode'] },
  { ...node, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.cjs' },
  { ...node, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.cjs' },
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
