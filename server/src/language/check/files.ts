/** Files a model names (data, corpora, imported networks): resolved, confined to the allowed roots, present. */
import type * as A from '../ast.js';
import type { CheckEnvironment } from '../environment.js';
import { dirnameOf, globBase, isInside, resolvePath } from '../paths.js';
import type { Reporter } from './context.js';

/**
 * The absolute path of a quoted file name, or undefined (with a diagnostic) when it is outside
 * the allowed roots or missing. Glob patterns (`news/**\/*.txt`) are checked for their folder's
 * place only, and yield undefined: there is no single file to read.
 */
export function resolveModelPath(path: A.StringLit, env: CheckEnvironment, report: Reporter): string | undefined {
  const base = env.documentPath ? dirnameOf(env.documentPath) : env.allowedRoots[0];
  if (base === undefined) return undefined;
  if (path.value.trim() === '') {
    report.error('file-not-found', 'the file name is empty', path.range);
    return undefined;
  }
  const glob = globBase(path.value);
  const absolute = resolvePath(base, glob ?? path.value);
  if (!env.allowedRoots.some((root) => isInside(root, absolute))) {
    report.error(
      'file-outside-roots',
      `"${path.value}" is outside the workspace and the data roots; add its folder as a data root (bayes.dataRoots, or --data-root on the command line)`,
      path.range,
      { path: absolute },
    );
    return undefined;
  }
  if (glob !== undefined) return undefined;
  if (!env.fileExists(absolute)) {
    report.error('file-not-found', `cannot find "${path.value}" (looked for ${absolute})`, path.range, {
      path: absolute,
    });
    return undefined;
  }
  return absolute;
}
