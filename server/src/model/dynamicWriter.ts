import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';

/**
 * A 2-slice network as the text of a `.bayes` network over time, numbers at full precision (17
 * digits: read back, they are the same doubles). Every table is written, slice 0's included.
 */
export function writeTwoSlice(dbn: TwoSliceNetwork): string {
  const n = dbn.variables.length;
  const name = (p: number, initial: boolean) => `${dbn.variables[p % n]!.name}[${initial ? '0' : p < n ? 't' : 't-1'}]`;
  const lines = [`network ${dbn.name} {`];
  for (const v of dbn.variables) lines.push(`  variable ${v.name} { ${v.states.join(', ')} }`);
  for (const [initial, cpts] of [
    [true, dbn.initial],
    [false, dbn.transition],
  ] as const)
    for (const cpt of cpts) {
      const child = dbn.variables[cpt.child]!;
      const given = cpt.parents.length ? ` | ${cpt.parents.map((p) => name(p, initial)).join(', ')}` : '';
      const k = child.states.length;
      const row = (r: number) =>
        `[${Array.from(cpt.table.subarray(r * k, r * k + k))
          .map((x) => x.toPrecision(17))
          .join(', ')}]`;
      const rows = cpt.table.length / k;
      lines.push(`  P(${name(cpt.child, initial)}${given}) {`);
      if (cpt.parents.length === 0)
        lines.push(`    ${child.states.map((s, x) => `${s}: ${cpt.table[x]!.toPrecision(17)}`).join(', ')}`);
      else
        for (let r = 0; r < rows; r++) {
          let rest = r;
          const keys: string[] = [];
          for (let j = cpt.parents.length - 1; j >= 0; j--) {
            const states = dbn.variables[cpt.parents[j]! % n]!.states;
            keys.unshift(states[rest % states.length]!);
            rest = Math.floor(rest / states.length);
          }
          lines.push(`    ${keys.join(', ')}: ${row(r)}`);
        }
      lines.push('  }');
    }
  lines.push('}');
  return lines.join('\n') + '\n';
}
