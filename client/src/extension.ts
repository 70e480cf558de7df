/**
 * The extension host side: starts the language server over IPC for `.bayes` files, passes it
 * workspace trust, and wires commands, the status bar, the results views and the server log.
 */
import * as path from 'node:path';
import { window, workspace, type ExtensionContext } from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import type { InitializationOptions } from '../../server/src/protocol/messages.js';
import { activateWith } from './activation.js';

let client: LanguageClient | undefined;

function createClient(
  context: ExtensionContext,
  output: ReturnType<typeof window.createOutputChannel>,
): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.cjs'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'bayes' }],
    outputChannel: output,
    // Data a model reads: a change re-checks open models and invalidates cached results.
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{csv,tsv,bif,xml,xmlbif,net,uai,xdsl,txt}') },
    // Restricted mode: the server checks models but never reads their data or runs them.
    initializationOptions: { trusted: workspace.isTrusted } satisfies InitializationOptions,
  };
  // The client id 'bayes' makes the `bayes.trace.server` setting trace the protocol into `output`.
  return new LanguageClient('bayes', 'Bayes Language Server', serverOptions, clientOptions);
}

export async function activate(context: ExtensionContext): Promise<void> {
  await activateWith(context, (output) => (client = createClient(context, output)));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
