/**
 * What the desktop extension (extension.ts) and the web extension (browser/extension.ts) share:
 * the status bar, the results views, the commands and workspace trust, around a language client
 * that each creates its own way (IPC to a Node process; a Web Worker).
 */
import { registerTestExplorer } from './testExplorer.js';
import { commands, languages, window, workspace, type ExtensionContext } from 'vscode';
import { openPendingExample } from './examples.js';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { registerCommands } from './commands.js';
import { RunStatus } from './statusBar.js';
import { ResultsPanel, RESULTS_VIEW_TYPE } from './resultsPanel.js';
import type { PanelState } from '../../server/src/protocol/webviewMessages.js';
import type { RunResultMessage, RunStateMessage } from '../../server/src/protocol/messages.js';
import { Method, RUN_COMMAND } from '../../server/src/protocol/methods.js';
import { modelsToRerun } from './restart.js';

type Output = ReturnType<typeof window.createOutputChannel>;

export async function activateWith(
  context: ExtensionContext,
  create: (output: Output) => BaseLanguageClient,
): Promise<void> {
  let client: LanguageClient | undefined;
  const output = window.createOutputChannel('Bayes Language Server', { log: true });
  const status = new RunStatus();
  const panels = { extensionUri: context.extensionUri, client: () => client, log: (line: string) => output.warn(line) };
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
    // The commands and panels use only what every language client has (requests, notifications).
    client = create(output) as LanguageClient;
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
      // The new server has no results: run the models on screen again (hints, hovers, panels).
      const editors = window.visibleTextEditors.map((e) => ({
        uri: e.document.uri.toString(),
        languageId: e.document.languageId,
      }));
      for (const uri of modelsToRerun(editors, ResultsPanel.openModels())) {
        const run = { command: RUN_COMMAND, arguments: [uri] };
        void client?.sendRequest('workspace/executeCommand', run).catch(() => undefined);
      }
      void window.showInformationMessage('Bayes: the language server restarted; the models on screen are run again.');
    },
  });
  context.subscriptions.push(...registerTestExplorer(() => client));
  context.subscriptions.push(
    workspace.onDidGrantWorkspaceTrust(() => void client?.sendNotification(Method.trust, { trusted: true })),
  );
  await start();
  await openPendingExample(context);
  await showWalkthroughOnce(context);
}

const WALKTHROUGH_SHOWN = 'bayes.walkthroughShown';

/** The getting-started walkthrough, on the first activation after install only (remembered in globalState). */
async function showWalkthroughOnce(context: ExtensionContext): Promise<void> {
  if (context.globalState.get<boolean>(WALKTHROUGH_SHOWN)) return;
  await context.globalState.update(WALKTHROUGH_SHOWN, true);
  // The user's own "no walkthroughs on install" holds for this one too.
  if (!workspace.getConfiguration('workbench').get<boolean>('welcomePage.walkthroughs.openOnInstall', true)) return;
  await commands
    .executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#gettingStarted`, false)
    .then(undefined, () => undefined);
}
