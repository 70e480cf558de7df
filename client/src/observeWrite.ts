/**
 * "Write evidence as observe lines" must not silently change what the file checks: `observe … in N`
 * lines at the end of the model are evidence for every query on N, so every `expect` line that
 * reads N may stop holding. Before writing, the host lists those lines (found by text: an `expect`
 * statement whose `in` clause names the network, or — for the default model — one without an
 * `in` clause) and writes only when the user confirms.
 */
export interface ExpectLine {
  /** 1-based, as the editor shows it. */
  line: number;
  text: string;
}

const EXPECT = /^\s*expect\b/;
const IN = /\bin\s+([A-Za-z_][A-Za-z0-9_]*)\b/;

export function expectLinesOn(text: string, network: string): ExpectLine[] {
  const out: ExpectLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!EXPECT.test(raw)) return;
    const code = raw.replace(/\/\/.*$/, '');
    const scope = IN.exec(code)?.[1];
    if (network === 'default' ? scope === undefined : scope === network) out.push({ line: i + 1, text: raw.trim() });
  });
  return out;
}

/** The confirmation's text: how many `expect` lines the evidence can change, the first few of them. */
export function writeWarning(lines: number, file: string, network: string, expects: ExpectLine[]): string {
  const shown = expects.slice(0, 8).map((e) => `line ${e.line}: ${e.text}`);
  const more = expects.length > shown.length ? [`… and ${expects.length - shown.length} more`] : [];
  const what = network === 'default' ? 'the default model' : network;
  return [
    `${lines} observe line${lines === 1 ? '' : 's'} at the end of ${file} become${lines === 1 ? 's' : ''} evidence for every query on ${what}: ` +
      `${expects.length} expect line${expects.length === 1 ? '' : 's'} may no longer hold.`,
    ...shown,
    ...more,
  ].join('\n');
}
