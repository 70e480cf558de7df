/**
 * `bayes filter --json` on a Gaussian network over time, written as it goes: the same bytes as
 * `JSON.stringify(answer) + '\n'` of the answer object (filterGaussian.ts `gaussianAnswer`), but
 * without building it. On 10^5 steps that object is 10^6 small objects and a 48 MB string, whose
 * garbage collection cost more than the Kalman smoother; here each step's text is made from the
 * engine's arrays and handed to the output in chunks of about 64 KB.
 *
 * Byte for byte: numbers as JSON.stringify writes them (String(x); null when not finite), strings
 * through JSON.stringify, and every record's keys in the order the object would have them — taken
 * once from an object built the same way, so names that a JS object orders first (array indices
 * such as "1") or that a step's `t` shares are placed as JSON.stringify placed them.
 */
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import type { GaussianMarginals, KalmanResult } from '../engine/dynamic/kalman.js';
import { setOwn } from '../engine/records.js';

/** Characters gathered before each write to the output. */
const CHUNK = 1 << 16;

const number = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');

/** A record's keys in JSON order: `slot` is the variable's index, or -1 for a step's own `t`. */
interface Key {
  quoted: string;
  slot: number;
}

function keyOrder(variables: readonly string[], withT: boolean): Key[] {
  const template: Record<string, number> = withT ? { t: -1 } : {};
  variables.forEach((v, i) => setOwn(template, v, i));
  return Object.keys(template).map((k) => ({ quoted: JSON.stringify(k), slot: template[k]! }));
}

/** Writes the answer's JSON and its newline through `out`, a chunk at a time. */
export function writeGaussianJson(net: GaussianTwoSliceNetwork, r: KalmanResult, out: (text: string) => void): void {
  let buffer = '';
  const put = (text: string) => {
    buffer += text;
    if (buffer.length >= CHUNK) {
      out(buffer);
      buffer = '';
    }
  };
  const keys = keyOrder(net.variables, false);
  const moments = (m: GaussianMarginals, i: number) =>
    `{"mean":${number(m.means[i]!)},"variance":${number(m.variances[i]!)}}`;
  const named = (m: GaussianMarginals) => `{${keys.map((k) => `${k.quoted}:${moments(m, k.slot)}`).join(',')}}`;
  put(`{"network":${JSON.stringify(net.name)},"method":"exact","steps":[`);
  const T = r.filtered.length;
  for (let t = 0; t < T; t++) {
    const smoothed = r.smoothed ? `,"smoothed":${named(r.smoothed[t]!)}` : '';
    put(`${t ? ',' : ''}{"t":${t + 1},"filtered":${named(r.filtered[t]!)}${smoothed}}`);
  }
  put(']');
  if (r.mostLikely) {
    put(',"mostLikely":[');
    r.mostLikely.forEach((x, t) =>
      put(`${t ? ',' : ''}{${keys.map((k) => `${k.quoted}:${number(x[k.slot]!)}`).join(',')}}`),
    );
    put(']');
  }
  put(`,"logLikelihood":${number(r.logLikelihood)}`);
  if (r.predicted) {
    // `{ t, ...named(p) }`: t first, unless a variable is named t (its moments then stand there).
    const stepKeys = keyOrder(net.variables, true);
    put(',"predicted":[');
    r.predicted.forEach((p, k) => {
      const fields = stepKeys.map((key) => `${key.quoted}:${key.slot < 0 ? T + k + 1 : moments(p, key.slot)}`);
      put(`${k ? ',' : ''}{${fields.join(',')}}`);
    });
    put(']');
  }
  if (r.note) put(`,"note":${JSON.stringify(r.note)}`);
  out(buffer + '}\n');
}
