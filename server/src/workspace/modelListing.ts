/**
 * The .bayes files under a folder named on the command line (`bayes test DIR`): sorted, links not
 * followed (a link to a folder above would loop), hidden folders and node_modules skipped, and at
 * most `maxEntries` directory entries looked at — a folder of millions of files is refused, not walked.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

export const MODEL_LISTING_MAX_ENTRIES = 200_000;

/** [path] for a file, the .bayes files under a folder; throws (with a message) when unreadable or too big. */
export function bayesFilesUnder(absolute: string, maxEntries = MODEL_LISTING_MAX_ENTRIES): string[] {
  if (!statSync(absolute).isDirectory()) return [absolute];
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (++seen > maxEntries) throw new Error(`more than ${maxEntries.toLocaleString('en-US')} entries to look at`);
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(full);
      else if (entry.isFile() && extname(entry.name) === '.bayes') found.push(full);
    }
  };
  walk(absolute);
  return found.sort();
}
