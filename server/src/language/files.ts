/** Files a model names (data, corpora, imported networks): resolved, confined to the allowed roots, present. */
import type * as A from './ast.js';
import { megabytes, type CheckEnvironment, type PathProblem } from './environment.js';
import { dirnameOf, globBase, isInside, resolvePath } from './paths.js';
import type { Reporter } from './reporter.js';

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
  // A NUL or another control character names no file (the system refuses NUL), and echoing it in
  // a message garbles the terminal or the editor: "a\0b.csv" was reported as 'cannot find "a b.csv"'.
  const control = [...path.value].find((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (control !== undefined) {
    const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    report.error('file-not-found', `a file name cannot contain a control character (${code} here)`, path.range);
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
  const problem = env.pathProblem?.(absolute, glob === undefined ? 'file' : 'folder');
  if (problem && (problem.rule !== 'missing' || glob === undefined)) {
    const message = pathProblemMessage(path.value, problem, absolute);
    report.error(PROBLEM_CODE[problem.rule], message, path.range, { path: absolute });
    return undefined;
  }
  if (glob !== undefined) return undefined;
  if (!env.pathProblem && !env.fileExists(absolute)) {
    report.error('file-not-found', `cannot find "${path.value}" (looked for ${absolute})`, path.range, {
      path: absolute,
    });
    return undefined;
  }
  return absolute;
}

const PROBLEM_CODE: Record<PathProblem['rule'], string> = {
  missing: 'file-not-found',
  outside: 'file-outside-roots',
  'not-regular': 'file-not-regular',
  'too-big': 'file-too-big',
};

/** Why the file named `written` (as the model writes it) is not read; never anything of its content. */
export function pathProblemMessage(written: string, problem: PathProblem, absolute?: string): string {
  switch (problem.rule) {
    case 'missing':
      return `cannot find "${written}"${absolute ? ` (looked for ${absolute})` : ''}`;
    case 'outside':
      return (
        `"${written}" leads outside the workspace and the data roots (it is, or passes through, a symbolic link);` +
        ' add the folder it leads to as a data root (bayes.dataRoots, or --data-root on the command line)'
      );
    case 'not-regular':
      return `"${written}" is ${problem.kind}, not a regular file; only regular files are read`;
    case 'too-big':
      return (
        `"${written}" is ${megabytes(problem.bytes)}, over the ${megabytes(problem.limit)} limit` +
        ' for files a model reads' +
        ' (setting bayes.maxFileMb, or --max-file-mb on the command line)'
      );
  }
}
