/**
 * What every bench against a peer prints around its figures: the load average (timings on a shared
 * machine drift with it), warm timings as min / median / max, and goal lines — `goal met` or
 * `goal FAILED` — where a failed goal makes the exit code 1, so a claim the bench no longer meets
 * cannot pass unnoticed.
 */
import { loadavg } from 'node:os';

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export interface Goals {
  /** Prints the goal line; a false `ok` is remembered as a failure. */
  check: (ok: boolean, text: string) => void;
  /** Lists the failures (exit code 1) or says every goal was met. */
  finish: () => void;
}

export function createGoals(): Goals {
  const failed: string[] = [];
  return {
    check: (ok, text) => {
      console.log(`  goal ${ok ? 'met   ' : 'FAILED'} ${text}`);
      if (!ok) failed.push(text);
    },
    finish: () => {
      if (failed.length === 0) {
        console.log(`\nevery goal met (load average ${loadAverage()})`);
        return;
      }
      console.log(`\n${failed.length} goal(s) FAILED (load average ${loadAverage()}):\n  ${failed.join('\n  ')}`);
      process.exitCode = 1;
    },
  };
}
