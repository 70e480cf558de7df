/**
 * "Import BIF…": the `import network` line for a picked file, its path relative to the model (so
 * the model still checks when the folder moves), `/` separated as the language writes paths.
 */
import { posix } from 'node:path';

export function importLine(modelPath: string, bifPath: string): string {
  const relative = posix.relative(posix.dirname(modelPath), bifPath);
  const base = posix.basename(bifPath).replace(/\.(bif|xml|xmlbif|net|uai|xdsl)$/i, '');
  const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(base) ? base[0]!.toUpperCase() + base.slice(1) : 'Imported';
  return `import network ${name} from ${JSON.stringify(relative)}`;
}
