import { FileRefusedError, problemText } from '../language/environment.js';

/** Why a read failed: the rule it broke, or the system's reason (never the file's content). */
export function readFailure(e: unknown): string {
  if (e instanceof FileRefusedError) return problemText(e.problem);
  const code = (e as { code?: string }).code;
  return code ? `the file cannot be read (${code})` : (e as Error).message;
}
