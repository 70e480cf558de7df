/** `--evidence VAR=STATE` (or VAR=NUMBER for a continuous variable), repeated: the evidence by name. */
import type { NamedEvidence } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';
import { UsageError } from './command.js';

/** The evidence by name; a variable given twice with different values is a usage error. */
export function evidencePairs(items: string[]): NamedEvidence {
  const out: NamedEvidence = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0 || eq === item.length - 1) throw new UsageError(`--evidence wants VAR=STATE, got '${item}'`);
    const [name, state] = [item.slice(0, eq), item.slice(eq + 1)];
    // A record keeps the last state given, so `-e A=x -e A=y` used to be answered as A = y alone.
    if (Object.hasOwn(out, name) && out[name] !== state) {
      throw new UsageError(`--evidence gives '${name}' twice (${out[name]}, then ${state}): observe a variable once`);
    }
    setOwn(out, name, state);
  }
  return out;
}
