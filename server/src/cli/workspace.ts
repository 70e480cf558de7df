/** Options every model-reading command shares: where the workspace is, which data roots are allowed. */
import { resolve, relative, isAbsolute, dirname } from 'node:path';
import type { CliIO } from './command.js';
import { nodeEnvironment } from '../workspace/files.js';
import type { CheckEnvironment } from '../language/index.js';

export const WORKSPACE_OPTIONS = {
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

export const WORKSPACE_USAGE = `Options:
  --workspace DIR   the workspace folder files may be read from (default: the current folder
                    when the model is inside it, else the model's folder)
  --data-root DIR   a further folder data may be read from (repeatable; also $BAYES_DATA_ROOT)
  --json            machine-readable output`;

export function environmentFor(
  file: string,
  values: { workspace?: string; 'data-root'?: string[] },
  io: CliIO,
): CheckEnvironment {
  const documentPath = resolve(io.cwd, file);
  const inside = (root: string) => {
    const rel = relative(root, documentPath);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const workspaceRoot = values.workspace
    ? resolve(io.cwd, values.workspace)
    : inside(io.cwd)
      ? io.cwd
      : dirname(documentPath);
  const fromEnv = process.env.BAYES_DATA_ROOT ? process.env.BAYES_DATA_ROOT.split(':').filter(Boolean) : [];
  const dataRoots = [...(values['data-root'] ?? []), ...fromEnv].map((r) => resolve(io.cwd, r));
  return nodeEnvironment({ documentPath, workspaceRoot, dataRoots });
}
