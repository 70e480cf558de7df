/** Applying LSP text edits and decoding semantic tokens, as an editor does, for protocol tests. */
export interface TextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

function offsetAt(text: string, p: { line: number; character: number }): number {
  let offset = 0;
  for (let l = 0; l < p.line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + p.character;
}

/** Applies non-overlapping edits (given against the same text) from the last to the first. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  for (const e of sorted)
    text = text.slice(0, offsetAt(text, e.range.start)) + e.newText + text.slice(offsetAt(text, e.range.end));
  return text;
}

export interface DecodedToken {
  line: number;
  character: number;
  text: string;
  type: string;
  modifiers: string[];
}

/** The relative (deltaLine, deltaStart, length, type, modifiers) quintuples as absolute tokens. */
export function decodeSemanticTokens(
  data: number[],
  text: string,
  types: string[],
  modifiers: string[],
): DecodedToken[] {
  const lines = text.split('\n');
  const tokens: DecodedToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
    tokens.push({
      line,
      character,
      text: lines[line].slice(character, character + data[i + 2]),
      type: types[data[i + 3]],
      modifiers: modifiers.filter((_, bit) => data[i + 4] & (1 << bit)),
    });
  }
  return tokens;
}

/** Position of the `nth` (0-based) occurrence of `needle` in the text, plus `shift` characters. */
export function positionOf(text: string, needle: string, nth = 0, shift = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' occurs fewer than ${nth + 1} times`);
  }
  const before = text.slice(0, at + shift);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}
