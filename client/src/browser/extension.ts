/**
 * The extension in VS Code for the Web (vscode.dev, github.dev): the language server runs in a
 * Web Worker (dist/browser/server.js) and reads the files a model names through this side, with
 * VS Code's file system API, confined to the workspace folders (files.ts). The `bayes` CLI and
 * Node's worker threads do not exist here; runs happen in the server's worker.
 */
import { Uri, window, workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import type { InitializationOptions } from '../../../server/src/protocol/messages.js';
import { Method } from '../../../server/src/protocol/methods.js';
import { activateWith } from '../activation.js';
import { readWorkspaceFile } from './files.js';

// The Web Worker constructor of the extension host's scope (the client is compiled without the DOM lib).
declare const Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[3];

let client: LanguageClient | undefined;

function createClient(
  context: ExtensionContext,
  output: ReturnType<typeof window.createOutputChannel>,
): LanguageClient {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'bayes' }],
    outputChannel: output,
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{csv,tsv,bif,xml,xmlbif,net,uai,xdsl,txt}') },
    initializationOptions: { trusted: workspace.isTrusted } satisfies InitializationOptions,
  };
  const serverMain = Uri.joinPath(context.extensionUri, 'dist', 'browser', 'server.js');
  const worker = new Worker(serverMain.toString(true));
  const created = new LanguageClient('bayes', 'Bayes Language Server', clientOptions, worker);
  created.onRequest(Method.readFile, (p: { path: string }) => readWorkspaceFile(p.path));
  return created;
}

export async function activate(context: ExtensionContext): Promise<void> {
  await activateWith(context, (output) => (client = createClient(context, output)));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
