/**
 * Signature help inside `naive_bayes(…)`, `gaussians(…)`, `Beta(…)`, … and the option blocks of
 * `learn … by em { … }`: the innermost open bracket before the cursor says which.
 */
import type { Position, SignatureHelp } from 'vscode-languageserver/node';
import { offsetAt } from './context.js';
import { FUNCTIONS, METHOD_SIGNATURES, type Signature } from './vocabulary.js';

/** How far back to look for the opening bracket: statements are short. */
const LOOK_BACK = 4000;

export function signatureHelp(text: string, position: Position): SignatureHelp | null {
  const end = offsetAt(text, position);
  const open = innermostOpen(text, end);
  if (!open) return null;
  const head = text.slice(Math.max(0, open.offset - 80), open.offset);
  const signature =
    open.bracket === '('
      ? own(FUNCTIONS, /([A-Za-z_]\w*)\s*$/.exec(head)?.[1])
      : own(METHOD_SIGNATURES, /\bby\s+([A-Za-z_]\w*)\s*$/.exec(head)?.[1]);
  if (!signature) return null;
  return {
    signatures: [
      {
        label: signature.label,
        documentation: signature.doc,
        parameters: signature.parameters.map((p) => ({ label: p.name, documentation: p.doc })),
      },
    ],
    activeSignature: 0,
    activeParameter: activeParameter(signature, text.slice(open.offset + 1, end)),
  };
}

/** `table[name]` when the table itself has it: `constructor(` must not find Object's constructor. */
function own(table: Record<string, Signature>, name: string | undefined): Signature | undefined {
  return name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** The unclosed `(` or `{` nearest before `end`, skipping strings and comments crudely (line-wise). */
function innermostOpen(text: string, end: number): { offset: number; bracket: '(' | '{' } | undefined {
  let depth = 0;
  for (let i = end - 1; i >= Math.max(0, end - LOOK_BACK); i--) {
    const c = text[i];
    if (c === ')' || c === '}' || c === ']') depth++;
    else if (c === '(' || c === '{' || c === '[') {
      if (depth === 0) return c === '[' ? undefined : { offset: i, bracket: c };
      depth--;
    }
  }
  return undefined;
}

/** A named argument (`k: 2`) selects its parameter; otherwise the count of commas does. */
function activeParameter(signature: Signature, inside: string): number {
  let depth = 0;
  let start = 0;
  let commas = 0;
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      commas++;
      start = i + 1;
    }
  }
  const named = /^\s*([A-Za-z_]\w*)\s*:/.exec(inside.slice(start))?.[1];
  const byName = signature.parameters.findIndex((p) => p.name === named);
  return byName >= 0 ? byName : Math.min(commas, signature.parameters.length - 1);
}
