/** Options every model-reading command shares: where the workspace is, which data roots are allowed. */
import { resolve, relative, isAbsolute, dirname } from 'node:path';
import type { CliIO } from './command.js';
import { commandLineFiles, nodeEnvironment, readCommandLineFileSync } from '../workspace/files.js';
import type { CheckEnvironment } from '../language/index.js';
import { cliBudgets } from './limits.js';
import { DEFAULT_FILE_LIMITS, FileRefusedError, type FileLimits, type Files } from '../language/environment.js';
import { pathProblemMessage } from '../language/files.js';
import { UsageError } from './command.js';

export const WORKSPACE_OPTIONS = {
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const MAX_FILE_USAGE = `  --max-file-mb MB  files larger than this are not read (default ${DEFAULT_FILE_LIMITS.maxFileBytes / 2 ** 20})`;

/** The size budget of --max-file-mb. */
export function limitsOption(text: string | undefined): Partial<FileLimits> {
  if (text === undefined) return {};
  const mb = Number(text);
  if (!(mb > 0) || !Number.isFinite(mb)) throw new UsageError(`--max-file-mb must be a positive number, not '${text}'`);
  return { maxFileBytes: Math.round(mb * 2 ** 20) };
}

/** Reads of the files named on the command line: any folder, but only regular files within the size budget. */
export function commandLineReads(values: { 'max-file-mb'?: string }): Files {
  return commandLineFiles(limitsOption(values['max-file-mb']));
}

/**
 * The text of a file named on the command line (a network, a model, an evidence file), read by the
 * workspace module's rules: a regular file, at most --max-file-mb (and `maxBytes`); undefined after
 * saying why not. No command reads a file it is given any other way.
 */
export function readCommandLineText(
  file: string,
  io: CliIO,
  maxFileMb: string | undefined,
  maxBytes = Infinity,
): string | undefined {
  const limit = Math.min(limitsOption(maxFileMb).maxFileBytes ?? DEFAULT_FILE_LIMITS.maxFileBytes, maxBytes);
  try {
    return readCommandLineFileSync(resolve(io.cwd, file), { maxFileBytes: limit }).toString('utf8');
  } catch (e) {
    if (e instanceof FileRefusedError && e.problem.rule !== 'missing') {
      io.err(`bayes: ${pathProblemMessage(file, e.problem)}\n`);
    } else {
      io.err(`bayes: cannot read ${file}: ${e instanceof FileRefusedError ? 'no such file' : (e as Error).message}\n`);
    }
    return undefined;
  }
}

export const WORKSPACE_USAGE = `Options:
  --workspace DIR   the workspace folder files may be read from (default: the current folder
                    when the model is inside it, else the model's folder)
  --data-root DIR   a further folder data may be read from (repeatable; also $BAYES_DATA_ROOT)
${MAX_FILE_USAGE}
  --json            machine-readable output`;

export function environmentFor(
  file: string,
  values: { workspace?: string; 'data-root'?: string[]; 'max-file-mb'?: string },
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
  return {
    ...nodeEnvironment(
      { documentPath, workspaceRoot, dataRoots, limits: limitsOption(values['max-file-mb']) },
      cliBudgets,
    ),
  };
}
