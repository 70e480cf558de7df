/** node:fs/promises for the web build: regular files read through the client (browser/host.ts). */
import { readHostFile } from '../host.js';

function stats(size: number, at: number, folder = false) {
  return {
    size,
    mtimeMs: at,
    isFile: () => !folder,
    isDirectory: () => folder,
    isFIFO: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
    isSocket: () => false,
    isSymbolicLink: () => false,
  };
}

/**
 * VS Code's file system API has no symbolic links to follow: a path is its own real path. The
 * confinement check (workspace/files.ts) runs on it before anything is asked of the client.
 */
export async function realpath(path: string): Promise<string> {
  return path;
}

export async function stat(path: string) {
  try {
    const { bytes, at } = await readHostFile(path);
    return stats(bytes.length, at);
  } catch (e) {
    if ((e as { code?: string }).code === 'EISDIR') return stats(0, 0, true);
    throw e;
  }
}

export const lstat = stat;

export async function open(path: string) {
  const { bytes, at } = await readHostFile(path);
  return {
    stat: async () => stats(bytes.length, at),
    read: async (buffer: Uint8Array, offset: number, length: number, position: number) => {
      const part = bytes.subarray(position, position + length);
      buffer.set(part, offset);
      return { bytesRead: part.length, buffer };
    },
    close: async () => undefined,
  };
}

export async function readdir(path: string): Promise<never> {
  throw Object.assign(new Error(`folders cannot be listed in VS Code for the Web: ${path}`), { code: 'ENOTSUP' });
}

export async function readFile(path: string): Promise<Uint8Array> {
  return (await readHostFile(path)).bytes;
}

export async function writeFile(path: string): Promise<never> {
  throw Object.assign(new Error(`files are not written in VS Code for the Web: ${path}`), { code: 'ENOTSUP' });
}

export default { realpath, stat, lstat, open, readdir, readFile, writeFile };
