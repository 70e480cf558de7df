/**
 * Files named in a model, resolved for a run: the checker has already reported missing or outside
 * ones. The host's reads apply the rules again (a file may change between check and run): a
 * refusal becomes a compile error on the path, worded with the path as the model writes it.
 */
import type * as A from '../language/ast.js';
import type { CheckEnvironment } from '../language/index.js';
import { FileRefusedError } from '../language/environment.js';
import { listCorpusFolder, type ListedFile } from '../language/folderCorpus.js';
import { pathProblemMessage, resolveModelPath } from '../language/files.js';
import { Reporter } from '../language/reporter.js';
import { CompileError } from './compileError.js';

function resolveModelFile(path: A.StringLit, env: CheckEnvironment): string {
  const report = new Reporter();
  const absolute = resolveModelPath(path, env, report);
  if (!absolute) throw new CompileError(report.diagnostics[0]?.message ?? `cannot read "${path.value}"`, path.range);
  if (!env.readText)
    throw new CompileError('files are not read in restricted mode (the workspace is not trusted)', path.range);
  return absolute;
}

/** The text of a file the model names (a data CSV, a BIF network). */
export function readModelText(path: A.StringLit, env: CheckEnvironment): string {
  const absolute = resolveModelFile(path, env);
  return refusals(path, () => env.readText!(absolute));
}

/** An imported network file, read and parsed by the host (see CheckEnvironment.readNetwork). */
export function readModelNetwork(
  path: A.StringLit,
  env: CheckEnvironment,
): ReturnType<NonNullable<CheckEnvironment['readNetwork']>> {
  const absolute = resolveModelFile(path, env);
  return refusals(path, () => env.readNetwork!(absolute));
}

function refusals<T>(path: A.StringLit, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof FileRefusedError) throw new CompileError(pathProblemMessage(path.value, e.problem), path.range);
    throw e;
  }
}

/** The bytes of a file the model names (a corpus archive); hosts without byte reads refuse. */
export function readModelBytes(path: A.StringLit, env: CheckEnvironment): Uint8Array {
  const absolute = resolveModelFile(path, env);
  if (!env.readBytes) throw new CompileError('this host cannot read archives', path.range);
  const readBytes = env.readBytes.bind(env);
  return refusals(path, () => readBytes(absolute));
}

/** The files of a folder corpus (see listCorpusFolder), or a compile error on the path. */
export function listModelFolder(path: A.StringLit, env: CheckEnvironment): ListedFile[] {
  const listed = listCorpusFolder(path.value, env);
  if ('error' in listed) throw new CompileError(listed.error, path.range);
  return listed.files;
}

/** The bytes of a file listed by listModelFolder, refusals worded with its path as written. */
export function readListedBytes(path: A.StringLit, file: ListedFile, env: CheckEnvironment): Uint8Array {
  if (!env.readBytes) throw new CompileError('this host cannot read corpus files', path.range);
  try {
    return env.readBytes(file.absolute);
  } catch (e) {
    if (e instanceof FileRefusedError) throw new CompileError(pathProblemMessage(file.written, e.problem), path.range);
    throw e;
  }
}
