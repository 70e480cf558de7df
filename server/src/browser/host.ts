/**
 * The web build's file access: the language server runs in a Web Worker with no file system, so
 * it asks the client (`bayes/readFile`), which reads through VS Code's file system API
 * (`workspace.fs`) and answers only for files inside a workspace folder. Answers are kept for a
 * short while, so a check's several questions about one file read it once.
 */
export interface ReadFileAnswer {
  /** The file's bytes, base64. */
  base64?: string;
  /** 'missing', 'outside' (not in a workspace folder), 'folder' or another reason. */
  error?: string;
}

type Reader = (path: string) => Promise<ReadFileAnswer>;

let reader: Reader | undefined;
const cache = new Map<string, { at: number; answer: Promise<ReadFileAnswer> }>();
const KEEP_MS = 2000;

export function setFileReader(read: Reader): void {
  reader = read;
  cache.clear();
}

export function forgetFiles(): void {
  cache.clear();
}

/**
 * The file's bytes and when they were read, or a Node-style error (code ENOENT, EACCES, EISDIR: a
 * folder, which fs/promises' stat reports as one).
 */
export async function readHostFile(path: string): Promise<{ bytes: Uint8Array; at: number }> {
  const now = Date.now();
  let entry = cache.get(path);
  if (!entry || now - entry.at > KEEP_MS) {
    if (!reader) throw codeError('ENOSYS', path);
    entry = { at: now, answer: reader(path) };
    cache.set(path, entry);
  }
  const answer = await entry.answer;
  if (answer.base64 === undefined) {
    const code = answer.error === 'folder' ? 'EISDIR' : answer.error === 'outside' ? 'EACCES' : 'ENOENT';
    throw codeError(code, path);
  }
  return { bytes: fromBase64(answer.base64), at: entry.at };
}

function codeError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
