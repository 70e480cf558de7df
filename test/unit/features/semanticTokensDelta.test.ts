/** The one-edit diff behind `semanticTokens/full/delta`: applying it to the old numbers gives the new ones, and it is as small as the change. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diff, SemanticTokensHistory } from '../../../server/src/features/semanticTokensDelta.js';

function apply(before: number[], edits: ReturnType<typeof diff>): number[] {
  const out = [...before];
  for (const e of [...edits].reverse()) out.splice(e.start, e.deleteCount, ...(e.data ?? []));
  return out;
}

test('the diff of token arrays is one edit between their common prefix and suffix', () => {
  assert.deepEqual(diff([1, 2, 3], [1, 2, 3]), []);
  assert.deepEqual(diff([], []), []);
  assert.deepEqual(diff([1, 2, 3, 4, 5], [1, 2, 9, 4, 5]), [{ start: 2, deleteCount: 1, data: [9] }]);
  assert.deepEqual(
    diff([1, 1], [1, 1, 1]),
    [{ start: 2, deleteCount: 0, data: [1] }],
    'prefix and suffix do not overlap',
  );
  assert.deepEqual(diff([1, 1, 1], [1]), [{ start: 1, deleteCount: 2, data: [] }]);
  // Random edits of random arrays (seeded): the edit always reproduces the new array.
  let seed = 7;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed % n;
  };
  for (let k = 0; k < 500; k++) {
    const before = Array.from({ length: rnd(30) }, () => rnd(4));
    const after = [...before];
    after.splice(rnd(before.length + 1), rnd(5), ...Array.from({ length: rnd(5) }, () => rnd(4)));
    const edits = diff(before, after);
    assert.deepEqual(apply(before, edits), after);
    assert.ok(edits.every((e) => (e.data ?? []).length <= after.length && e.deleteCount <= before.length));
  }
});

test("deltas in a row patch the client's tokens to the latest, though the server encodes into the memory of older ones", () => {
  const history = new SemanticTokensHistory();
  let seed = 11;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed % n;
  };
  let latest = Array.from({ length: 40 }, () => rnd(9));
  const first = history.full('u', { data: latest });
  let client = [...latest];
  let resultId = first.resultId!;
  for (let k = 0; k < 50; k++) {
    latest = [...latest];
    latest.splice(rnd(latest.length + 1), rnd(6), ...Array.from({ length: rnd(6) }, () => rnd(9)));
    const encode = (reuse?: Int32Array) => {
      const out = reuse && reuse.length >= latest.length ? reuse : new Int32Array(latest.length + rnd(4));
      out.fill(-1).set(latest);
      return out.subarray(0, latest.length);
    };
    const answer = history.delta('u', resultId, encode, () => ({ data: latest }));
    assert.ok('edits' in answer);
    client = apply(client, answer.edits);
    assert.deepEqual(client, latest, `step ${k}`);
    resultId = answer.resultId!;
  }
  // A stale id gets the full tokens.
  assert.deepEqual(
    history.delta(
      'u',
      'old',
      () => new Int32Array(0),
      () => ({ data: latest }),
    ),
    { resultId: String(52), data: latest },
  );
});
