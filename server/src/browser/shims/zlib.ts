/**
 * node:zlib for the web build: compressed archives (.tar.gz corpora) are not opened there; a model
 * naming one gets this message as its diagnostic. Plain folders of text files and .tar archives
 * are unaffected.
 */
const MESSAGE = 'compressed archives (.gz) are not read in VS Code for the Web; unpack it, or run the model in VS Code';
export function gunzipSync(): never {
  throw new Error(MESSAGE);
}
export function createGunzip(): never {
  throw new Error(MESSAGE);
}
export default { gunzipSync, createGunzip };
