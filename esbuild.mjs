// Bundles the extension client, the language server, the run worker, the CLI and the webview.
// Chevrotain is ESM-only; bundling it into CommonJS lets VS Code and Node 20 `require` the result.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// `bayes --version`: the package version and the engine's build (the git commit, when built from a
// clone, and the build date), baked into dist/cli.cjs.
function gitCommit() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: 'pipe' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return commit + (dirty.trim() ? '+changes' : '');
  } catch {
    return 'no git commit';
  }
}
const packageVersion = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;
const cliBuild = `${gitCommit()}, built ${new Date().toISOString().slice(0, 10)}`;

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };
const node = {
  ...common,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // import.meta.url has no meaning in a CJS bundle; code that needs its own location uses __filename.
  define: { 'import.meta.url': 'undefined' },
  // import() of a CommonJS file goes through Node's ESM loader, which first scans the whole file for
  // its export names (about 0.1 s for dist/cli-commands.cjs); require() loads it directly. The CLI's
  // bundles are compiled by vm.Script (cli/codeCache.ts), where import() would need a loader of its own.
  supported: { 'dynamic-import': false },
};

// The web build: Node's modules are replaced by server/src/browser/shims (files read through the client,
// no worker threads, no zlib), and runs use browser/runJob.ts. Anything else Node-only fails the build.
const shims = {
  'node:fs': 'fs.ts',
  'node:fs/promises': 'fsPromises.ts',
  'node:path': 'path.ts',
  'node:url': 'url.ts',
  'node:crypto': 'crypto.ts',
  'node:zlib': 'zlib.ts',
  'node:worker_threads': 'workerThreads.ts',
};
const webShims = {
  name: 'web-shims',
  setup(build) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    build.onResolve({ filter: /^node:/ }, (args) => {
      const shim = shims[args.path];
      if (shim) return { path: path.join(here, 'server/src/browser/shims', shim) };
      return {
        errors: [{ text: `${args.path} is Node-only and has no web replacement (imported by ${args.importer})` }],
      };
    });
    build.onResolve({ filter: /^vscode-languageserver\/node$/ }, () => ({
      path: path.join(here, 'node_modules/vscode-languageserver/lib/browser/main.js'),
    }));
    build.onResolve({ filter: /\/runJob\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}browser${path.sep}`)
        ? undefined
        : { path: path.join(here, 'server/src/browser/runJob.ts') },
    );
  },
};
const web = {
  ...common,
  platform: 'browser',
  target: 'es2022',
  plugins: [webShims],
  inject: ['server/src/browser/shims/globals.ts'],
  define: { 'import.meta.url': 'undefined' },
};

// The CLI is three files so that `bayes --help` parses a small one: dist/cli.cjs (the dispatcher,
// server/src/cli.ts) loads dist/cli-commands.cjs (every command) when a command runs, or
// dist/cli-check.cjs for `bayes check` (a third of the size: the front end without the engine and
// the language server, 25 ms to load instead of 80), or dist/cli-marginals.cjs for `bayes marginals`
// (the network readers and the inference engine, without the language server and the learners);
// those files take the modules they share with
// the dispatcher (command.ts, limits.ts, version.ts, terminalText.ts: one nonce for the
// terminal's controls) from dist/cli.cjs. dist/cli-gaussian.cjs is `bayes marginals`' fast path
// for Hugin NET files with continuous nodes.
const COMMAND_FILES =
  /^\.\/(check|run|lsp|marginals|gaussianMarginals|formatMarginals|convert|learn|structure|mixture|filter|predict|validate|test|completion|doctor)\.js$/;
/** Commands (or fast paths) with a bundle of their own; every other goes to dist/cli-commands.cjs. */
const OWN_BUNDLES = {
  './check.js': './cli-check.cjs',
  './marginals.js': './cli-marginals.cjs',
  './gaussianMarginals.js': './cli-gaussian.cjs',
  './formatMarginals.js': './cli-network.cjs',
};
const cliDispatcher = {
  name: 'cli-dispatcher',
  setup(build) {
    build.onResolve({ filter: COMMAND_FILES }, (args) => {
      if (!args.importer.endsWith('commands.ts')) return undefined;
      return { path: OWN_BUNDLES[args.path] ?? './cli-commands.cjs', external: true };
    });
  },
};
const cliCommands = {
  name: 'cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(command|limits|version|terminalText)\.js$/ }, (args) =>
      /[\\/]server[\\/]src[\\/]cli[\\/]/.test(args.importer) ? { path: './cli.cjs', external: true } : undefined,
    );
  },
};

const builds = [
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.cjs', external: ['vscode'] },
  { ...node, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.cjs' },
  {
    ...node,
    entryPoints: ['server/src/cli.ts'],
    outfile: 'dist/cli.cjs',
    plugins: [cliDispatcher],
    define: {
      ...node.define,
      __BAYES_VERSION__: JSON.stringify(packageVersion),
      __BAYES_BUILD__: JSON.stringify(cliBuild),
    },
  },
  { ...node, entryPoints: ['server/src/cli/allCommands.ts'], outfile: 'dist/cli-commands.cjs', plugins: [cliCommands] },
  { ...node, entryPoints: ['server/src/cli/check.ts'], outfile: 'dist/cli-check.cjs', plugins: [cliCommands] },
  // `bayes marginals X.net` on a network with continuous nodes (cli/gaussianMarginals.ts): the NET
  // reader and the hybrid engine, without the language front end and the other commands.
  {
    ...node,
    entryPoints: ['server/src/cli/gaussianMarginals.ts'],
    outfile: 'dist/cli-gaussian.cjs',
    plugins: [cliCommands],
  },
  { ...node, entryPoints: ['server/src/cli/marginals.ts'], outfile: 'dist/cli-marginals.cjs', plugins: [cliCommands] },
  // `bayes marginals X.bif` (cli/formatMarginals.ts): the interchange formats' readers and the
  // engine, without the language front end that dist/cli-marginals.cjs adds for `.bayes` models.
  {
    ...node,
    entryPoints: ['server/src/cli/formatMarginals.ts'],
    outfile: 'dist/cli-network.cjs',
    plugins: [cliCommands],
  },
  { ...node, entryPoints: ['server/src/run/worker.ts'], outfile: 'dist/worker.cjs' },
  { ...node, entryPoints: ['server/src/cli/bootstrapWorker.ts'], outfile: 'dist/bootstrapWorker.cjs' },
  { ...node, entryPoints: ['server/src/run/marginalsWorker.ts'], outfile: 'dist/marginalsWorker.cjs' },
  { ...node, entryPoints: ['server/src/run/networkReadWorker.ts'], outfile: 'dist/networkReadWorker.cjs' },
  {
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    entryPoints: ['webview/src/main.ts'],
    outfile: 'dist/webview.js',
  },
  // VS Code for the Web: the client as an ES module-free CJS bundle, the server in a Web Worker.
  {
    ...web,
    entryPoints: ['client/src/browser/extension.ts'],
    outfile: 'dist/browser/client.js',
    format: 'cjs',
    external: ['vscode'],
  },
  { ...web, entryPoints: ['server/src/browser/server.ts'], outfile: 'dist/browser/server.js', format: 'iife' },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  await writeCodeCaches();
}

/**
 * V8 code caches for the command bundles (server/src/cli/codeCache.ts): a few commands run once
 * with BAYES_WRITE_CODE_CACHE=1, each writing the caches of the bundles it loaded, beside them.
 * A run that fails leaves its bundles without a cache (they are compiled at each start, as before).
 * Watch mode writes none: a rebuilt bundle's old cache no longer matches it and is ignored.
 */
function writeCodeCaches() {
  const training = [
    ['marginals', 'examples/data/asia.xml', '-e', 'xray=yes', '--json'],
    ['marginals', 'examples/data/waste.net', '--json'],
    ['check', 'examples/alarm.bayes'],
    ['marginals', 'examples/cancer.bayes', '--json'],
    ['run', 'examples/cancer.bayes'],
  ];
  const run = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['dist/cli.cjs', ...args], {
        env: { ...process.env, BAYES_WRITE_CODE_CACHE: '1', NODE_OPTIONS: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => {
        if (code !== 0)
          console.warn(`esbuild.mjs: no code cache from bayes ${args.join(' ')} (exit ${code}): ${stderr}`);
        resolve();
      });
    });
  return Promise.all(training.map(run));
}
