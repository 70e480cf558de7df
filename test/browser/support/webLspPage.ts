/**
 * Runs in the test page (bundled by web.test.ts): starts the web language server
 * (dist/browser/server.js) in a Web Worker and talks LSP to it with vscode-jsonrpc's browser
 * reader and writer, as vscode-languageclient/browser does. The page plays the VS Code client:
 * it answers `bayes/readFile` from the files the test gives it (only under the workspace folder),
 * and keeps the diagnostics the server publishes.
 */
import { BrowserMessageReader, BrowserMessageWriter, createMessageConnection } from 'vscode-jsonrpc/browser';

interface Published {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

const w = window as unknown as Record<string, unknown>;
const worker = new Worker('/dist/browser/server.js');
const connection = createMessageConnection(new BrowserMessageReader(worker), new BrowserMessageWriter(worker));
const files = new Map<string, Uint8Array>();
const published: Published[] = [];
const reads: string[] = [];
let root = '/';

connection.onNotification('textDocument/publishDiagnostics', (p: Published) => void published.push(p));
connection.onNotification(() => undefined);
connection.onRequest('bayes/readFile', (p: { path: string }): { base64?: string; error?: string } => {
  reads.push(p.path);
  if (!p.path.startsWith(root) || p.path.split('/').includes('..')) return { error: 'outside' };
  const bytes = files.get(p.path);
  if (!bytes)
    return [...files.keys()].some((f) => f.startsWith(`${p.path}/`)) ? { error: 'folder' } : { error: 'missing' };
  return { base64: btoa(String.fromCharCode(...bytes)) };
});
let settings: unknown = null;
connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
connection.onRequest('client/registerCapability', () => null);
connection.onRequest('window/workDoneProgress/create', () => null);
connection.listen();

w.lsp = {
  setSettings: (value: unknown) => {
    settings = value;
  },
  setRoot: (path: string) => {
    root = path;
  },
  putFile: (path: string, text: string) => files.set(path, new TextEncoder().encode(text)),
  request: (method: string, params: unknown) => connection.sendRequest(method, params),
  notify: (method: string, params: unknown) => connection.sendNotification(method, params),
  published: () => published,
  reads: () => reads,
};
w.lspReady = true;
