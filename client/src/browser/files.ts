/**
 * Answers the web server's `bayes/readFile`: the file at a path inside one of the workspace
 * folders, read with `workspace.fs` (which works for every file system VS Code for the Web
 * mounts). A path outside every workspace folder is refused, as on the desktop.
 */
import { FileType, Uri, workspace } from 'vscode';

export interface ReadFileAnswer {
  base64?: string;
  error?: string;
}

function inside(root: string, path: string): boolean {
  const r = root.endsWith('/') ? root : `${root}/`;
  return path === root || path.startsWith(r);
}

export async function readWorkspaceFile(path: string): Promise<ReadFileAnswer> {
  if (typeof path !== 'string' || path.split('/').includes('..')) return { error: 'outside' };
  const folder = (workspace.workspaceFolders ?? [])
    .filter((f) => inside(f.uri.path, path))
    .sort((a, b) => b.uri.path.length - a.uri.path.length)[0];
  if (!folder) return { error: 'outside' };
  const uri: Uri = folder.uri.with({ path });
  try {
    const st = await workspace.fs.stat(uri);
    if (st.type & FileType.Directory) return { error: 'folder' };
    return { base64: toBase64(await workspace.fs.readFile(uri)) };
  } catch {
    return { error: 'missing' };
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
