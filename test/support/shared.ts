/** Locates `../shared` (data, design) beside the repository, as CI lays it out. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sharedDir = process.env.BAYES_SHARED ?? resolve(repoRoot, '..', 'shared');
export const sharedData = join(sharedDir, 'data');

/** The path of a shared data file, or undefined when it is absent (skip with NO_SHARED). */
export function sharedFile(...parts: string[]): string | undefined {
  const p = join(sharedData, ...parts);
  return existsSync(p) ? p : undefined;
}

export const NO_SHARED = `../shared/data is not beside the repository (looked in ${sharedData}); set BAYES_SHARED to run this test`;
