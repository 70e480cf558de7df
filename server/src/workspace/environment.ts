/**
 * The check/run environment of one document in the server: its path, the workspace folder it
 * lies in and the configured data roots. In a restricted (untrusted) workspace the model is
 * parsed and checked, but nothing may read its data files: only existence checks remain.
 */
import { fileURLToPath } from 'node:url';
import type { CheckEnvironment } from '../language/index.js';
import { isInside } from '../language/paths.js';
import { nodeEnvironment, type NodeEnvironmentOptions } from './files.js';
import type { BayesSettings } from './settings.js';

export function documentPath(uri: string): string | undefined {
  return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
}

export function environmentOptions(
  uri: string,
  workspaceRoots: readonly string[],
  settings: BayesSettings,
): NodeEnvironmentOptions {
  const path = documentPath(uri);
  // The innermost workspace folder holding the file; an unsaved buffer reads nothing.
  const root = path
    ? [...workspaceRoots].sort((a, b) => b.length - a.length).find((r) => isInside(r, path))
    : undefined;
  return { documentPath: path, workspaceRoot: root, dataRoots: settings.dataRoots };
}

/** Untrusted: only existence checks; no CSV headers, network files or data are read. */
export function checkEnvironment(options: NodeEnvironmentOptions, trusted: boolean): CheckEnvironment {
  return nodeEnvironment({ ...options, restricted: !trusted });
}
