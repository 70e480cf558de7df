/**
 * node:url for the web build. Workspace files have `file:` URIs on the desktop and other schemes
 * on the web (`vscode-vfs:`, `vscode-test-web:`); the server works with the URI's path, and the
 * client maps the path back to the folder's URI when it reads (client/src/browser/files.ts).
 */
export function fileURLToPath(uri: string | URL): string {
  return decodeURIComponent(new URL(String(uri)).pathname);
}
export function pathToFileURL(path: string): URL {
  return new URL(`file://${path.split('/').map(encodeURIComponent).join('/')}`);
}
export default { fileURLToPath, pathToFileURL };
