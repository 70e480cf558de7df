/** The panel's Copy (TSV): what a spreadsheet would run is prefixed, tabs and line breaks are quoted. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tsvCell, tsvText } from '../../../webview/src/tsv.js';

test('cells a spreadsheet would run are prefixed with a quote (OWASP), numbers stay numbers', () => {
  assert.equal(tsvCell('=HYPERLINK("http://evil.example","x")'), `"'=HYPERLINK(""http://evil.example"",""x"")"`);
  assert.equal(tsvCell("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
  assert.equal(tsvCell('+1+1'), "'+1+1");
  assert.equal(tsvCell('-2+3'), "'-2+3");
  assert.equal(tsvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(tsvCell('＝1+1'), "'＝1+1");
  assert.equal(tsvCell('\tx'), `"'\tx"`);
  assert.equal(tsvCell('\r=1'), `"'\r=1"`);
  // Numbers, as numbers or as text, are not prefixed: a pasted -0.25 is still a number.
  assert.equal(tsvCell(-0.25), '-0.25');
  assert.equal(tsvCell('-0.25'), '-0.25');
  assert.equal(tsvCell('+3'), '+3');
  assert.equal(tsvCell('-1e-5'), '-1e-5');
  assert.equal(tsvCell(1e-7), '1e-7');
  assert.equal(tsvCell('0-3_days'), '0-3_days');
  assert.equal(tsvCell(undefined), '');
});

test('tabs, line breaks and quotes are quoted, so rows and columns stay in place', () => {
  const text = tsvText([
    ['state', 'P'],
    ['a\tb', 0.5],
    ['line1\nline2', 0.25],
    ['say "hi"', 0.25],
  ]);
  assert.equal(text, 'state\tP\n"a\tb"\t0.5\n"line1\nline2"\t0.25\n"say ""hi"""\t0.25\n');
  // Read back as a spreadsheet does (quoted fields may hold tabs and line breaks): 4 rows of 2 cells.
  assert.deepEqual(readTsv(text), [
    ['state', 'P'],
    ['a\tb', '0.5'],
    ['line1\nline2', '0.25'],
    ['say "hi"', '0.25'],
  ]);
});

/** A quoted-field TSV reader (RFC 4180 with tabs), as spreadsheets paste. */
function readTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === '\t') endCell();
    else if (c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
  }
  return rows;
}
