/** A JSON-RPC client that drives the real language server over stdio, as another editor would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { repoRoot } from './shared.js';

export interface LspSession {
  connection: MessageConnection;
  process: ChildProcess;
  /** Resolves with the next publishDiagnostics for the URI. */
  nextDiagnostics(uri: string): Promise<{ uri: string; diagnostics: { message: string; range: unknown; severity: number }[] }>;
  close(): Promise<void>;
}

export async function startLsp(rootPath: string = repoRoot): Promise<LspSession> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.cjs'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting = new Map<string, ((p: never) => void)[]>();
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string }) => {
    const queue = waiting.get(params.uri);
    queue?.shift()?.(params as never);
  });
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: 'file://' + rootPath,
    workspaceFolders: [{ uri: 'file://' + rootPath, name: 'root' }],
    capabilities: {},
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    process: child,
    nextDiagnostics: (uri) => new Promise((resolve) => {
      const queue = waiting.get(uri) ?? [];
      queue.push(resolve as never);
      waiting.set(uri, queue);
    }),
    async close() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}
