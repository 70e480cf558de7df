/** Files named in a model, resolved for a run: the checker has already reported missing or outside ones. */
import type * as A from '../language/ast.js';
import type { CheckEnvironment } from '../language/index.js';
import { resolveModelPath } from '../language/check/files.js';
import { Reporter } from '../language/check/context.js';
import { CompileError } from './compileError.js';

export function resolveModelFile(path: A.StringLit, env: CheckEnvironment): string {
  const report = new Reporter();
  const absolute = resolveModelPath(path, env, report);
  if (!absolute) throw new CompileError(report.diagnostics[0]?.message ?? `cannot read "${path.value}"`, path.range);
  if (!env.readText) throw new CompileError('files are not read in restricted mode (the workspace is not trusted)', path.range);
  return absolute;
}
