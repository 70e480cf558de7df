/**
 * The language server for VS Code for the Web (vscode.dev, github.dev): the same server as
 * server.ts, in a Web Worker, talking LSP over postMessage. esbuild.mjs bundles it with Node's
 * modules replaced (browser/shims/): files are read by the client through VS Code's file system
 * API (`bayes/readFile`, confined to the workspace folders), runs happen on this thread and stop
 * by the engine's CancelSignal (browser/runJob.ts), and there is no CLI.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer } from '../server.js';
import { Method } from '../protocol/methods.js';
import { fileSchemes } from '../workspace/environment.js';
import { setFileReader, type ReadFileAnswer } from './host.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the worker scope (no DOM lib here)
declare const self: any;

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
setFileReader((path) => connection.sendRequest<ReadFileAnswer>(Method.readFile, { path }));
// vscode.dev and github.dev open repositories as `vscode-vfs:`; the test host uses `vscode-test-web:`.
for (const scheme of ['vscode-vfs:', 'vscode-test-web:', 'vscode-remote:', 'file:']) fileSchemes.add(scheme);
startServer(connection);
