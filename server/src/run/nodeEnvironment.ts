/**
 * The file system as the checker and the run pipeline see it, for Node hosts (CLI, server).
 * Reads are confined to the allowed roots: a model may not read outside its workspace.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import type { CheckEnvironment } from '../language/index.js';

export interface NodeEnvironmentOptions {
  documentPath?: string;
  /** The workspace folder; defaults to the folder of the document. */
  workspaceRoot?: string;
  /** More folders models may read data from (setting `bayes.dataRoots`, CLI `--data-root`). */
  dataRoots?: string[];
}

export function nodeEnvironment(options: NodeEnvironmentOptions): CheckEnvironment {
  const documentPath = options.documentPath ? resolve(options.documentPath) : undefined;
  const workspace = options.workspaceRoot ?? (documentPath ? dirname(documentPath) : process.cwd());
  const allowedRoots = [resolve(workspace), ...(options.dataRoots ?? []).map((r) => resolve(r))];
  return {
    documentPath,
    allowedRoots,
    fileExists: (p) => existsSync(p) && statSync(p).isFile(),
  };
}
