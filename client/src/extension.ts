/**
 * The extension host side: starts the language server over IPC for `.bayes` files, passes it
 * workspace trust, and wires commands, the status bar, the results views and the server log.
 */
import * as path from 'node:path';
import { languages, window, workspace, type ExtensionContext } from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { registerCommands } from './commands.js';
import { RunStatus } from './statusBar.js';
import { ResultsPanel, RESULTS_VIEW_TYPE } from './resultsPanel.js';
import type { PanelState } from '../../server/src/protocol/webviewMessages.js';
import type { InitializationOptions, RunResultMessage, RunStateMessage } from '../../server/src/protocol/messages.js';
import { Method } from '../../server/src/protocol/methods.js';

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
  const output = window.createOutputChannel('Bayes Language Server', { log: true });
  const status = new RunStatus();
  const panels = { extensionUri: context.extensionUri, client: () => client };
  context.subscriptions.push(
    output,
    status,
    window.registerWebviewPanelSerializer(RESULTS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) =>
        ResultsPanel.revive(panel, panels, state as PanelState | undefined),
    }),
    languages.onDidChangeDiagnostics((e) => ResultsPanel.problemsChanged(e.uris)),
  );
  context.subscriptions.push(window.onDidChangeActiveTextEditor((e) => status.show(e?.document.uri.toString())));

  const start = async () => {
    client = createClient(context, output);
    client.onNotification(Method.runState, (m: RunStateMessage) => status.update(m));
    client.onNotification(Method.runResult, (m: RunResultMessage) => ResultsPanel.runFinished(m));
    await client.start();
  };
  registerCommands(context, {
    client: () => client,
    showPanel: (model, view, network) => ResultsPanel.createOrShow(panels, model, view, network),
    restart: async () => {
      await client?.stop();
      await start();
    },
  });
  context.subscriptions.push(
    workspace.onDidGrantWorkspaceTrust(() => void client?.sendNotification(Method.trust, { trusted: true })),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
