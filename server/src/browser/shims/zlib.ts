/**
 * node:zlib for the web build: compressed archives (.tar.gz corpora) are not opened there; a model
 * naming one gets a diagnostic (the web build reads no archive: model/files.ts says "this host cannot
 * read archives" before this is reached).
 */
const MESSAGE = 'compressed archives (.gz) are not read in VS Code for the Web; unpack it, or run the model in VS Code';
export function gunzipSync(): never {
  throw new Error(MESSAGE);
}
export function createGunzip(): never {
  throw new Error(MESSAGE);
}
export default { gunzipSync, createGunzip };
