/**
 * The check/run environment of one document in the server: its path, the workspace folder it
 * lies in, the configured data roots and the size budgets. In a restricted (untrusted) workspace
 * the model is parsed and checked, but nothing may read its data files: only existence checks
 * remain (session.ts). Confinement and budgets hold in every mode.
 */
import { fileURLToPath } from 'node:url';
import { isInside } from '../language/paths.js';
import type { NodeEnvironmentOptions } from './files.js';
import { fileLimitsOf, type BayesSettings } from './settings.js';

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
  return { documentPath: path, workspaceRoot: root, dataRoots: settings.dataRoots, limits: fileLimitsOf(settings) };
}
