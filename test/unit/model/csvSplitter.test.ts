import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvSplitter, CsvSyntaxError } from '../../../server/src/model/csvSplitter.js';

function split(chunks: string[], delimiter = ','): Array<[string[], number]> {
  const out: Array<[string[], number]> = [];
  const s = new CsvSplitter(delimiter, (cells, line) => out.push([[...cells], line]));
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

const TEXT = '\uFEFFa,"b ""quoted""",c\r\n\n x , "multi\nline",\r\n"",?,"z"\nlast,row,here';
const EXPECTED: Array<[string[], number]> = [
  [['a', 'b "quoted"', 'c'], 1],
  [['x', 'multi\nline', ''], 3],
  [['', '?', 'z'], 5],
  [['last', 'row', 'here'], 6],
];

test('quotes with "" escapes, embedded newlines, CRLF, BOM, blank lines and trimming, with 1-based record lines', () => {
  assert.deepEqual(split([TEXT]), EXPECTED);
});

test('every split of the text into two or three chunks gives the same records', () => {
  for (let i = 0; i <= TEXT.length; i++) {
    assert.deepEqual(split([TEXT.slice(0, i), TEXT.slice(i)]), EXPECTED, `split at ${i}`);
    for (let j = i; j <= TEXT.length; j += 7)
      assert.deepEqual(split([TEXT.slice(0, i), TEXT.slice(i, j), TEXT.slice(j)]), EXPECTED);
  }
});

test('space-delimited records.dat form: quoted cells, runs of spaces are one separator', () => {
  assert.deepEqual(split(['"True" "Low"  "?"\n', '  "False" "High" "Normal"  \n'], ' '), [
    [['True', 'Low', '?'], 1],
    [['False', 'High', 'Normal'], 2],
  ]);
});

test('an unclosed quote and text after a closing quote are syntax errors with a line', () => {
  assert.throws(
    () => split(['a,b\n"c,d\n']),
    (e: Error) => e instanceof CsvSyntaxError && e.line === 2 && /not closed/.test(e.message),
  );
  assert.throws(
    () => split(['a\n"x"y,z\n']),
    (e: Error) => e instanceof CsvSyntaxError && e.line === 2 && /after a closing quote/.test(e.message),
  );
});
