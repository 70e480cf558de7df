/**
 * The panel's evidence as `observe` lines in the model's language. Names are written so that the
 * line reads back as the same evidence: a state that is not a plain name is quoted
 * (`"0-3_days"`, with `"` and `\` escaped, docs/language.md "Lexical structure"); a name the
 * language cannot hold on one line (line breaks, control characters) or a variable or network
 * that is not a plain name is refused with the reason, never written as something else.
 */
import type { PanelEvidence } from '../../server/src/protocol/webviewMessages.js';

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A decimal number as the panel writes a continuous variable's value (String(Number(text))). */
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;
/** Line breaks and other control characters (C0, DEL, C1, U+2028/U+2029) cannot sit in a quoted name. */
// eslint-disable-next-line no-control-regex
const UNWRITABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export type ObserveLines = { lines: string[] } | { error: string };

/** A state as the language reads it: a plain name as is, anything else quoted. */
export function stateText(state: string): string | undefined {
  if (UNWRITABLE.test(state)) return undefined;
  return PLAIN.test(state) ? state : `"${state.replace(/[\\"]/g, (c) => '\\' + c)}"`;
}

/** Shows a name in a message with its control characters escaped (a line break as \n). */
function shown(name: string): string {
  return JSON.stringify(name);
}

export function observeLines(network: string, e: PanelEvidence, states: (variable: string) => string[]): ObserveLines {
  if (network !== 'default' && !PLAIN.test(network))
    return { error: `the network name ${shown(network)} is not a plain name: no observe line can name it` };
  const scope = network === 'default' ? '' : ` in ${network}`;
  const problems: string[] = [];
  const variable = (v: string) => {
    if (!PLAIN.test(v)) problems.push(`the variable ${shown(v)} is not a plain name`);
    return v;
  };
  const state = (s: string) => {
    const t = stateText(s);
    if (t === undefined) problems.push(`the state ${shown(s)} holds a line break or control character`);
    return t ?? '';
  };
  const vector = (v: string, xs: number[]) =>
    `{ ${states(v)
      .map((s, i) => `${state(s)}: ${xs[i]}`)
      .join(', ')} }`;
  const lines = [
    // A continuous variable (no states) is observed as a number, written as the number it is.
    ...Object.entries(e.evidence).map(
      ([v, s]) => `observe ${variable(v)} = ${states(v).length === 0 && NUMBER.test(s) ? s : state(s)}${scope}`,
    ),
    ...Object.entries(e.likelihoods).map(([v, xs]) => `observe ${variable(v)} ~ likelihood ${vector(v, xs)}${scope}`),
    ...Object.entries(e.soft).map(([v, xs]) => `observe ${variable(v)} ~ ${vector(v, xs)}${scope}`),
  ];
  return problems.length ? { error: `cannot write the evidence as observe lines: ${problems.join('; ')}` } : { lines };
}
