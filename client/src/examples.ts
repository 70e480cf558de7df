/**
 * "Bayes: Open Example…": the example models ship with the extension. The first use copies them
 * (with their small data in examples/data) to the extension's storage, where they can be edited
 * and run like any model; a pick opens one.
 */
import { Uri, window, workspace, type ExtensionContext } from 'vscode';

export async function openExample(context: ExtensionContext): Promise<void> {
  const folder = await examplesFolder(context);
  const entries = await workspace.fs.readDirectory(folder);
  const models = entries
    .filter(([name]) => name.endsWith('.bayes'))
    .map(([name]) => name)
    .sort();
  const pick = await window.showQuickPick(models, {
    title: 'Bayes: open an example model',
    placeHolder: 'cancer.bayes',
  });
  if (!pick) return;
  await window.showTextDocument(Uri.joinPath(folder, pick));
}

/** The writable copy of the examples, made once from the extension's own. */
async function examplesFolder(context: ExtensionContext): Promise<Uri> {
  const copy = Uri.joinPath(context.globalStorageUri, 'examples');
  try {
    await workspace.fs.stat(copy);
  } catch {
    await workspace.fs.createDirectory(context.globalStorageUri);
    await workspace.fs.copy(Uri.joinPath(context.extensionUri, 'examples'), copy, { overwrite: false });
  }
  return copy;
}
