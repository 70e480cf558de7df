/**
 * "Bayes: Open Example…": the example models ship with the extension. A pick lists each model
 * with its first doc-comment line, and opens it from a folder the user sees in the Explorer,
 * where it can be edited and run like any model: `bayes-examples/` in the first workspace folder
 * (copied there once, with the small data of examples/data; an existing copy, edits included,
 * is kept), or — with no folder open — the extension's own copy added to the workspace as a
 * folder of its own. Adding the first folder restarts the extension host, so the pick is
 * remembered and opened on the next activation (openPendingExample).
 */
import { Uri, window, workspace, type ExtensionContext, type QuickPickItem } from 'vscode';
import { firstDocLine } from './exampleList.js';

/** The folder made in the workspace for the examples. */
export const EXAMPLES_FOLDER = 'bayes-examples';
const PENDING = 'bayes.pendingExample';

export async function openExample(context: ExtensionContext): Promise<void> {
  const shipped = Uri.joinPath(context.extensionUri, 'examples');
  const items = await exampleItems(shipped);
  const pick = await window.showQuickPick(items, {
    title: 'Bayes: open an example model',
    placeHolder: 'cancer.bayes',
    matchOnDetail: true,
  });
  if (!pick) return;
  const root = workspace.workspaceFolders?.[0];
  if (root) {
    const folder = Uri.joinPath(root.uri, EXAMPLES_FOLDER);
    await copyOnce(shipped, folder);
    await window.showTextDocument(Uri.joinPath(folder, pick.label));
    return;
  }
  const folder = Uri.joinPath(context.globalStorageUri, 'examples');
  await copyOnce(shipped, folder);
  const file = Uri.joinPath(folder, pick.label);
  await context.globalState.update(PENDING, file.toString());
  // With no folder open this restarts the extension host; the pick opens on the next activation.
  if (!workspace.updateWorkspaceFolders(0, 0, { uri: folder, name: 'Bayes examples' })) {
    await context.globalState.update(PENDING, undefined);
    await window.showTextDocument(file);
  }
}

/** Opens the example picked before the extension host restarted (a folder was added), once. */
export async function openPendingExample(context: ExtensionContext): Promise<void> {
  const pending = context.globalState.get<string>(PENDING);
  if (!pending) return;
  await context.globalState.update(PENDING, undefined);
  await window.showTextDocument(Uri.parse(pending)).then(undefined, () => undefined);
}

/** Each shipped model with the first line of its `///` doc comment (what it shows). */
async function exampleItems(shipped: Uri): Promise<QuickPickItem[]> {
  const entries = await workspace.fs.readDirectory(shipped);
  const names = entries
    .filter(([name]) => name.endsWith('.bayes'))
    .map(([name]) => name)
    .sort();
  return Promise.all(
    names.map(async (label) => {
      const text = new TextDecoder().decode(await workspace.fs.readFile(Uri.joinPath(shipped, label)));
      return { label, detail: firstDocLine(text) };
    }),
  );
}

/** Copies the shipped examples to `folder` unless a copy is there (the user's edits are kept). */
async function copyOnce(shipped: Uri, folder: Uri): Promise<void> {
  try {
    await workspace.fs.stat(folder);
  } catch {
    await workspace.fs.copy(shipped, folder, { overwrite: false });
  }
}
