/** A JSON-RPC client that drives the real language server over stdio, as another editor would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { repoRoot } from './shared.js';

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: { message: string; range: Range; severity: number; code?: string; data?: unknown }[];
}
export interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface LspOptions {
  rootPath?: string;
  /** Enables the worker's test hooks (`//! test: spin 3000`, crash, oom). */
  testHooks?: boolean;
  /** What workspace/configuration answers for section `bayes`. */
  settings?: Record<string, unknown>;
  /** Default `{ trusted: true }` (a client that opted in, as VS Code in a trusted workspace). */
  initializationOptions?: Record<string, unknown>;
}

export interface LspSession {
  connection: MessageConnection;
  process: ChildProcess;
  /** Every notification received, in order, by method. */
  notifications: { method: string; params: unknown }[];
  /** Resolves with the next publishDiagnostics for the URI. */
  nextDiagnostics(uri: string): Promise<PublishedDiagnostics>;
  /** Resolves with the next notification of `method` whose params satisfy `match`. */
  nextNotification<T>(method: string, match?: (params: T) => boolean): Promise<T>;
  open(uri: string, text: string, version?: number): Promise<PublishedDiagnostics>;
  request<T>(method: string, params: unknown): Promise<T>;
  close(): Promise<void>;
}

export function fileUri(path: string): string {
  return pathToFileURL(path).toString();
}

/** examples/NAME as a document to open: its file URI and text. */
export function exampleDocument(name: string): { uri: string; text: string } {
  const path = join(repoRoot, 'examples', name);
  return { uri: fileUri(path), text: readFileSync(path, 'utf8') };
}

export async function startLsp(options: LspOptions | string = {}): Promise<LspSession> {
  const o: LspOptions = typeof options === 'string' ? { rootPath: options } : options;
  const rootPath = o.rootPath ?? repoRoot;
  const env = { ...process.env, ...(o.testHooks ? { BAYES_TEST_HOOKS: '1' } : {}) };
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.cjs'), 'lsp', '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env,
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const notifications: { method: string; params: unknown }[] = [];
  const waiters: { method: string; match: (p: never) => boolean; resolve: (p: never) => void }[] = [];
  const received = (method: string, params: unknown) => {
    notifications.push({ method, params });
    const i = waiters.findIndex((w) => w.method === method && w.match(params as never));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(params as never);
  };
  connection.onNotification(received);
  // vscode-jsonrpc routes `$/progress` to its own handler, never to the catch-all one.
  connection.onUnhandledProgress((params) => received('$/progress', params));
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map(() => o.settings ?? {}),
  );
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('workspace/inlayHint/refresh', () => null);
  connection.onRequest('workspace/codeLens/refresh', () => null);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: fileUri(rootPath),
    workspaceFolders: [{ uri: fileUri(rootPath), name: 'root' }],
    capabilities: { workspace: { configuration: true, workspaceFolders: true }, window: { workDoneProgress: true } },
    initializationOptions: o.initializationOptions ?? { trusted: true },
  });
  await connection.sendNotification('initialized', {});
  const nextNotification = <T>(method: string, match: (p: T) => boolean = () => true) =>
    new Promise<T>((resolve) =>
      waiters.push({ method, match: match as (p: never) => boolean, resolve: resolve as (p: never) => void }),
    );
  const nextDiagnostics = (uri: string) =>
    nextNotification<PublishedDiagnostics>('textDocument/publishDiagnostics', (p) => p.uri === uri);
  return {
    connection,
    process: child,
    notifications,
    nextDiagnostics,
    nextNotification,
    async open(uri, text, version = 1) {
      const published = nextDiagnostics(uri);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'bayes', version, text },
      });
      return published;
    },
    request: (method, params) => connection.sendRequest(method, params),
    async close() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}
