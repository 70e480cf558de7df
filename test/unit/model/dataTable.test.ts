import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readDiscreteText, readDiscreteFile, readNumericText, DataError } from '../../../server/src/model/dataTable.js';
import { readBif } from '../../../server/src/model/bif.js';
import { alignToNetwork, groupRows } from '../../../server/src/engine/dataset.js';
import { sharedFile, NO_SHARED } from '../../support/shared.js';
import { createRng } from '../../../server/src/engine/random.js';
import { commandLineFiles, csvHeader } from '../../../server/src/workspace/files.js';

test('a CSV header names the variables; ? and empty cells are missing (-1); states index by first appearance', async () => {
  const d = await readDiscreteText('Outlook,Wind,"Play Tennis"\nSunny,Weak,No\r\n"Rain",?,Yes\nSunny,,Yes\n');
  assert.deepEqual(
    d.attributes.map((v) => v.name),
    ['Outlook', 'Wind', 'Play Tennis'],
  );
  assert.equal(d.rowCount, 3);
  assert.deepEqual(d.attributes[0]!.values, ['Sunny', 'Rain']);
  assert.deepEqual([...d.columns[0]!], [0, 1, 0]);
  assert.deepEqual([...d.columns[1]!], [0, -1, -1]);
  assert.deepEqual([...d.columns[2]!], [0, 1, 1]);
  assert.ok(d.columns[0] instanceof Int32Array);
});

test('columns grow past their first size without losing cells; a 200-value dictionary keeps first-appearance order', async () => {
  const lines = ['id'];
  for (let i = 0; i < 3000; i++) lines.push(`s${i % 200}`);
  const d = await readDiscreteText(lines.join('\n'));
  assert.equal(d.rowCount, 3000);
  assert.equal(d.attributes[0]!.values[17], 's17');
  assert.equal(d.attributes[0]!.values.length, 200);
  for (let i = 0; i < 3000; i++) assert.equal(d.columns[0]![i], i % 200);
});

test('bad tables are errors with a line number, never a crash', async () => {
  await assert.rejects(
    readDiscreteText('A,B\nx,y\nx\n'),
    (e: Error) => e instanceof DataError && /line 3: 1 value, expected 2/.test(e.message),
  );
  await assert.rejects(readDiscreteText('A,A\nx,y\n'), /appears twice/);
  await assert.rejects(readDiscreteText(''), /empty/);
  await assert.rejects(
    readDiscreteText('yes\nmaybe\n', { columns: [{ name: 'A', states: ['yes', 'no'] }] }),
    /line 2: 'maybe' is not a state of A/,
  );
  await assert.rejects(readNumericText('x,y\n1,2\n3,?\n'), /line 3: '\?' in column y is not a number/);
});

test('a header row over 64 KiB is refused by the run as by the checker; an empty file is empty, not long', async () => {
  // 20,000 columns "c0,c1,…" make a 128 KB header: each column used to cost 4 KB before any row.
  const wide = Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(',');
  const text = `${wide}\n${wide.replace(/c\d+/g, '1')}\n`;
  const refused = (e: Error) => e instanceof DataError && e.message === 'line 1: the header row is longer than 64 KiB';
  await assert.rejects(readDiscreteText(text), refused);
  await assert.rejects(readNumericText(text), refused);
  assert.deepEqual(csvHeader(new TextEncoder().encode(text).subarray(0, 65537)), {
    error: 'the header row is longer than 64 KiB',
  });
  // Just under the limit: read.
  const narrow = Array.from({ length: 6000 }, (_, i) => `c${i}`).join(',');
  assert.ok(narrow.length < 65536);
  assert.equal((await readDiscreteText(`${narrow}\n${narrow}\n`)).attributes.length, 6000);
  assert.deepEqual(csvHeader(new Uint8Array(0)), { error: 'the table is empty (no header)' });
  assert.deepEqual(csvHeader(new TextEncoder().encode('\n\n')), { error: 'the table is empty (no header)' });
  // A column named twice: refused by the checker as by the run.
  assert.deepEqual(csvHeader(new TextEncoder().encode('a,b,a\n1,2,3\n')), {
    error: "column 'a' appears twice in the header",
  });
  await assert.rejects(readDiscreteText('a,b,a\n1,2,3\n'), {
    message: "line 1: column 'a' appears twice in the header",
  });
});

test('numeric tables are row-major Float64', async () => {
  const d = await readNumericText('eruptions,waiting\n3.6,79\n1.8,54\n');
  assert.deepEqual(d.names, ['eruptions', 'waiting']);
  assert.deepEqual([...d.values], [3.6, 79, 1.8, 54]);
  assert.equal(d.dims, 2);
  const bare = await readNumericText('3.6,79\n1.8,54\n');
  assert.deepEqual(bare.names, ['x1', 'x2']);
  assert.equal(bare.rows, 2);
});

test('alignToNetwork reorders columns, maps states and marks absent variables hidden', async () => {
  const d = await readDiscreteText('B,A\nyes,lo\nno,hi\n?,hi\n');
  const r = alignToNetwork(
    [
      { name: 'A', states: ['hi', 'lo'] },
      { name: 'B', states: ['no', 'yes'] },
      { name: 'H', states: ['a', 'b'] },
    ],
    d,
  );
  if ('error' in r) assert.fail(r.error);
  assert.deepEqual([...r.data.columns[0]!], [1, 0, 0]);
  assert.deepEqual([...r.data.columns[1]!], [1, 0, -1]);
  assert.deepEqual([...r.data.columns[2]!], [-1, -1, -1]);
  assert.deepEqual(r.hidden, ['H']);
  const bad = alignToNetwork(
    [
      { name: 'A', states: ['hi'] },
      { name: 'B', states: ['no', 'yes'] },
    ],
    d,
  );
  assert.ok('error' in bad && /lo/.test(bad.error));
});

test('groupRows finds distinct patterns with multiplicities', async () => {
  const d = await readDiscreteText('A,B\nx,y\nx,?\nx,y\nz,y\nx,?\nx,y\n');
  const g = groupRows(d);
  assert.equal(g.count, 3);
  assert.deepEqual([...g.weights], [3, 2, 1]);
  assert.deepEqual([...g.states], [0, 0, 0, -1, 1, 0]);
});

test('alarm-em records.dat (space separated, quoted, no header) reads in network order', async (t) => {
  const dat = sharedFile('tables', 'alarm-em', 'records.dat');
  const bif = sharedFile('tables', 'alarm-em', 'alarm.bif');
  if (!dat || !bif) return t.skip(NO_SHARED);
  const r = readBif(readFileSync(bif, 'utf8'));
  if ('error' in r) assert.fail(r.error.message);
  const d = await readDiscreteFile(commandLineFiles(), dat, { delimiter: ' ', columns: r.network.variables });
  assert.equal(d.rowCount, 11100);
  assert.equal(d.columns.length, 37);
  let missing = 0;
  for (const c of d.columns) for (const s of c) if (s < 0) missing++;
  // "one per record in most rows"
  assert.ok(missing > 8000 && missing < 11100 * 2, `missing = ${missing}`);
  // First record: Hypovolemia = "False", and column 11 is "?".
  assert.equal(r.network.variables[0]!.states[d.columns[0]![0]!], 'False');
  assert.equal(d.columns[10]![0], -1);
});

test('an unclosed quote is a DataError with its line', async () => {
  await assert.rejects(
    readDiscreteText('A,B\nx,"y\n'),
    (e: Error) => e instanceof DataError && /^line \d+: /.test(e.message),
  );
});

test('groupRows agrees with a string-keyed grouping on 20,000 random rows (hash table grows past its first size)', () => {
  const rng = createRng(12);
  const rows = 20000;
  const cards = [2, 3, 50, 40, 2];
  const columns = cards.map((k) => Int32Array.from({ length: rows }, () => rng.int(k + 1) - 1));
  const d = {
    attributes: cards.map((k, i) => ({ name: `v${i}`, values: Array.from({ length: k }, (_, s) => `${s}`) })),
    columns,
    rowCount: rows,
  };
  const g = groupRows(d);
  const naive = new Map<string, number>();
  for (let r = 0; r < rows; r++) {
    const key = columns.map((c) => c[r]).join(',');
    naive.set(key, (naive.get(key) ?? 0) + 1);
  }
  assert.ok(g.count > 1024, `${g.count} patterns`);
  assert.equal(g.count, naive.size);
  for (let p = 0; p < g.count; p++)
    assert.equal(g.weights[p], naive.get([...g.states.subarray(p * 5, p * 5 + 5)].join(',')));
});

test('declared states encode a header file straight into network indices, and alignment then shares the columns', async () => {
  const variables = [
    { name: 'A', states: ['hi', 'lo'] },
    { name: 'B', states: ['no', 'yes'] },
  ];
  const d = await readDiscreteText('B,A\nyes,lo\nno,?\n', { declared: { A: ['hi', 'lo'], B: ['no', 'yes'] } });
  assert.deepEqual([...d.columns[0]!], [1, 0]);
  const r = alignToNetwork(variables, d);
  if ('error' in r) assert.fail(r.error);
  assert.equal(r.data.columns[0], d.columns[1]);
  assert.equal(r.data.columns[1], d.columns[0]);
  assert.deepEqual([...r.data.columns[0]!], [1, -1]);
});
