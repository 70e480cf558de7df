/**
 * node:fs for the web build: there are no synchronous reads in a Web Worker. The server never
 * reads synchronously (workspace/fileFacts.ts asks asynchronously); these say so if reached.
 */
function unsupported(): never {
  throw Object.assign(new Error('synchronous file access is not available in VS Code for the Web'), {
    code: 'ENOTSUP',
  });
}
export const constants = { O_RDONLY: 0, O_NOFOLLOW: 0, O_NONBLOCK: 0, O_WRONLY: 1, O_CREAT: 0, O_EXCL: 0 };
export const closeSync = unsupported;
export const fstatSync = unsupported;
export const openSync = unsupported;
export const readSync = unsupported;
export const realpathSync = unsupported;
export const statSync = unsupported;
export const existsSync = (): boolean => false;
export const readFileSync = unsupported;
export const writeFileSync = unsupported;
export const readdirSync = unsupported;
export const mkdirSync = unsupported;
export const lstatSync = unsupported;
export const fchmodSync = unsupported;
export const fsyncSync = unsupported;
export const renameSync = unsupported;
export const unlinkSync = unsupported;
export const writeSync = unsupported;
export type Stats = { size: number; mtimeMs: number };
export default {
  constants,
  closeSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  existsSync,
  readFileSync,
};
