/**
 * A `bayes` command is one short process: V8's young generation growing from 1 MB to 16 MB
 * semi-spaces is memory written for the first time, which on the machines measured costs ~12 µs a
 * page (a 112 MB table's first fill 350 ms, its second 4 ms). Kept at its first size, survivors
 * are promoted sooner and fewer fresh pages are touched: munin4's one-shot answer 13.7 k → 9.3 k
 * page faults (its triangulation 3.2 k → 1.5 k), 30–40 ms less (fresh processes, alternated).
 * The language server, a long-lived process, keeps V8's default. Must run before the work
 * allocates: the flag acts from the next young-generation resize on.
 */
import { setFlagsFromString } from 'node:v8';

export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
