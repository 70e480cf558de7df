/**
 * The "Bayes" commands. Each acts on the active .bayes editor (or the URI a code lens passes):
 * run, show results and graph, import a BIF network (as an `import network` line), export a
 * network as BIF and the last results as JSON, restart the server.
 */
import { commands, window, workspace, Uri, type ExtensionContext } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { PanelView } from '../../server/src/protocol/webviewMessages.js';
import type { LastResult, NetworkSummary } from '../../server/src/protocol/messages.js';
import { Method, RUN_COMMAND } from '../../server/src/protocol/methods.js';
import { openExample } from './examples.js';

export interface CommandHost {
  client(): LanguageClient | undefined;
  restart(): Promise<void>;
  /** Opens (or brings forward) the model's results panel. */
  showPanel(model: Uri, view: PanelView, network?: string): void;
}

function modelUri(arg: unknown): Uri | undefined {
  if (arg instanceof Uri) return arg;
  if (typeof arg === 'string') return Uri.parse(arg);
  const doc = window.activeTextEditor?.document;
  if (doc?.languageId === 'bayes') return doc.uri;
  void window.showWarningMessage('Bayes: open a .bayes model first.');
  return undefined;
}

function running(host: CommandHost): LanguageClient | undefined {
  const client = host.client();
  if (!client)
    void window.showErrorMessage('Bayes: the language server is not running; try "Bayes: Restart Language Server".');
  return client;
}

export function registerCommands(context: ExtensionContext, host: CommandHost): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(commands.registerCommand(id, run));

  register('bayes.run', async (arg) => {
    const uri = modelUri(arg);
    const client = uri && running(host);
    if (!uri || !client) return;
    const state = await client.sendRequest<string>('workspace/executeCommand', {
      command: RUN_COMMAND,
      arguments: [uri.toString()],
    });
    if (state === 'failed') void window.showErrorMessage('Bayes: the run failed; see the Problems panel.');
  });

  register('bayes.openExample', () => openExample(context));

  register('bayes.showResults', (arg) => {
    const uri = modelUri(arg);
    if (uri) host.showPanel(uri, 'results');
  });

  register('bayes.showGraph', (arg, network) => {
    const uri = modelUri(arg);
    if (uri) host.showPanel(uri, 'graph', typeof network === 'string' ? network : undefined);
  });

  register('bayes.importBif', async () => {
    const editor = window.activeTextEditor;
    if (editor?.document.languageId !== 'bayes')
      return void window.showWarningMessage('Bayes: open the .bayes model to import into first.');
    const extensions = ['bif', 'xml', 'xmlbif', 'net', 'uai', 'xdsl'];
    const filters = { 'Networks (BIF, XMLBIF, Hugin NET, UAI, GeNIe XDSL)': extensions };
    const picked = await window.showOpenDialog({ filters, canSelectMany: false, openLabel: 'Import' });
    if (!picked?.[0]) return;
    const from = editor.document.uri.path.replace(/[^/]*$/, '');
    const path = picked[0].path.startsWith(from) ? picked[0].path.slice(from.length) : picked[0].fsPath;
    const base = picked[0].path
      .split('/')
      .pop()!
      .replace(/\.(bif|xml|xmlbif|net|uai|xdsl)$/i, '');
    const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(base) ? base[0].toUpperCase() + base.slice(1) : 'Imported';
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    const gap = editor.document.getText().endsWith('\n') ? '' : '\n';
    await editor.edit((e) => e.insert(end, `${gap}import network ${name} from ${JSON.stringify(path)}\n`));
  });

  register('bayes.exportBif', async (arg) => {
    const uri = modelUri(arg);
    const client = uri && running(host);
    if (!uri || !client) return;
    const networks = await client.sendRequest<NetworkSummary[]>(Method.networks, { uri: uri.toString() });
    if (networks.length === 0) return void window.showWarningMessage('Bayes: this model declares no network.');
    const name =
      networks.length === 1
        ? networks[0].name
        : await window.showQuickPick(
            networks.map((n) => n.name),
            { placeHolder: 'Network to export' },
          );
    if (!name) return;
    const filters = { BIF: ['bif'], 'XMLBIF 0.3': ['xml'], 'Hugin NET': ['net'], UAI: ['uai'] };
    const target = await window.showSaveDialog({ defaultUri: Uri.joinPath(uri, '..', `${name}.bif`), filters });
    if (!target) return;
    const format = /\.[^./]*$/.exec(target.path)?.[0].toLowerCase() ?? '.bif';
    const request = { uri: uri.toString(), network: name, format };
    const exported = await client.sendRequest<{ text: string } | { error: string }>(Method.exportBif, request);
    if ('error' in exported) return void window.showErrorMessage(`Bayes: ${exported.error}`);
    await workspace.fs.writeFile(target, new TextEncoder().encode(exported.text));
  });

  register('bayes.exportResults', async (arg) => {
    const uri = modelUri(arg);
    const client = uri && running(host);
    if (!uri || !client) return;
    const last = await client.sendRequest<LastResult | null>(Method.lastResult, { uri: uri.toString() });
    if (!last) return void window.showWarningMessage('Bayes: run the model first.');
    const target = await window.showSaveDialog({
      defaultUri: Uri.joinPath(
        uri,
        '..',
        uri.path
          .split('/')
          .pop()!
          .replace(/\.bayes$/, '.results.json'),
      ),
      filters: { JSON: ['json'] },
    });
    if (target)
      await workspace.fs.writeFile(target, new TextEncoder().encode(JSON.stringify(last.result, null, 2) + '\n'));
  });

  register('bayes.restartServer', () => host.restart());
}
