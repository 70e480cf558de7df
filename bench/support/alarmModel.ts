/**
 * The big-data benchmark model: the ALARM network (37 variables, from the shared bnlearn BIF,
 * converted by a tiny local reader) with 37-column data rows forward-sampled from it (seeded)
 * up to a line count; without the shared data, a synthetic chain network with data rows of
 * the same size. Used by bench/parse.ts (parse + check) and bench/lsp.ts (editor features).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedData } from '../../test/support/shared.js';

// Where the tests look for the shared data (BAYES_SHARED, else ../shared beside the repository).
export const bifPath = join(sharedData, 'bif', 'alarm.bif');
export const useAlarm = existsSync(bifPath);

interface BifVariable {
  name: string;
  states: string[];
}
interface BifTable {
  child: string;
  parents: string[];
  rows: { keys: string[]; probs: number[] }[];
}

/** Just enough BIF for alarm.bif: discrete variables, tuple rows and root `table`s. */
function readBif(text: string): { variables: BifVariable[]; tables: BifTable[] } {
  const variables = [...text.matchAll(/variable\s+(\S+)\s*\{[^{]*\{([^}]*)\}/g)].map((m) => ({
    name: m[1],
    states: m[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  }));
  const tables = [...text.matchAll(/probability\s*\(\s*([^|)\s]+)\s*(?:\|\s*([^)]*))?\)\s*\{([^}]*)\}/g)].map((m) => {
    const parents = m[2] ? m[2].split(',').map((s) => s.trim()) : [];
    const rows = [...m[3].matchAll(/(?:\(([^)]*)\)|table)\s*([^;]*);/g)].map((r) => ({
      keys: r[1] ? r[1].split(',').map((s) => s.trim()) : [],
      probs: r[2].split(',').map(Number),
    }));
    return { child: m[1], parents, rows };
  });
  return { variables, tables };
}

/** Seeded forward sampling in an order where parents come first. */
function sampler(variables: BifVariable[], tables: BifTable[], seed: number): () => string[] {
  let state = seed >>> 0;
  const rnd = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const byChild = new Map(tables.map((t) => [t.child, t]));
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < variables.length) {
    for (const v of variables) {
      if (!placed.has(v.name) && byChild.get(v.name)!.parents.every((p) => placed.has(p))) {
        order.push(v.name);
        placed.add(v.name);
      }
    }
  }
  const statesOf = new Map(variables.map((v) => [v.name, v.states]));
  return () => {
    const value = new Map<string, string>();
    for (const name of order) {
      const t = byChild.get(name)!;
      const key = t.parents.map((p) => value.get(p)).join(',');
      const row = t.rows.find((r) => r.keys.join(',') === key) ?? t.rows[0];
      let u = rnd();
      let i = 0;
      while (i < row.probs.length - 1 && (u -= row.probs[i]) > 0) i++;
      value.set(name, statesOf.get(name)![i]);
    }
    return variables.map((v) => value.get(v.name)!);
  };
}

function alarmModel(lines: number): string {
  const { variables, tables } = readBif(readFileSync(bifPath, 'utf8'));
  const out: string[] = [
    '/// ALARM (Beinlich et al. 1989), converted from the bnlearn BIF for this benchmark.',
    'network Alarm {',
  ];
  for (const v of variables) out.push(`  variable ${v.name} { ${v.states.join(', ')} }`);
  for (const t of tables) {
    const head = t.parents.length ? `P(${t.child} | ${t.parents.join(', ')})` : `P(${t.child})`;
    if (t.parents.length === 0) {
      const states = variables.find((v) => v.name === t.child)!.states;
      out.push(`  ${head} { ${states.map((s, i) => `${s}: ${t.rows[0].probs[i]}`).join(', ')} }`);
      continue;
    }
    out.push(`  ${head} {`);
    for (const r of t.rows) out.push(`    ${r.keys.join(', ')}: [${r.probs.join(', ')}]`);
    out.push('  }');
  }
  out.push(
    '}',
    '',
    'query P(HISTORY | CVP = HIGH, HR = LOW) in Alarm',
    'query mpe Alarm given BP = LOW',
    'learn Alarm from Records by em { seed: 1 }',
    '',
  );
  out.push('data Records {', `  ${variables.map((v) => v.name).join(', ')}`);
  const sample = sampler(variables, tables, 1);
  while (out.length < lines - 1) out.push(`  ${sample().join(', ')}`);
  out.push('}');
  return out.join('\n') + '\n';
}

/** Without the shared data: a chain of binary variables of the same total size. */
function syntheticModel(lines: number): string {
  const out = ['network Chain {', '  variable X0 : bool', '  P(X0) = 0.5'];
  let i = 1;
  for (; out.length < lines / 2; i++)
    out.push(`  variable X${i} : bool`, `  P(X${i} | X${i - 1}) { true: 0.9, false: 0.2 }`);
  out.push('}', 'data Rows {', '  X0, X1, X2, X3');
  while (out.length < lines - 1) out.push('  true, false, true, ?');
  out.push('}');
  return out.join('\n') + '\n';
}

/** The ALARM model when the shared data is there, else the synthetic one: `[label, text]`. */
export function bigDataModel(lines: number): [string, string] {
  return useAlarm
    ? ['ALARM + 37-column records sampled from it', alarmModel(lines)]
    : ['synthetic chain + records', syntheticModel(lines)];
}
