/** The web build's synchronous SHA-256 (browser/shims/crypto.ts) against node:crypto. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash as nodeHash } from 'node:crypto';
import { createHash } from '../../../server/src/browser/shims/crypto.js';
import { createRng } from '../../../server/src/engine/random.js';

test('FIPS 180-4 test vectors', () => {
  assert.equal(
    createHash('sha256').update('').digest('hex'),
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  );
  assert.equal(
    createHash('sha256').update('abc').digest('hex'),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  );
  assert.equal(
    createHash('sha256').update('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq').digest('hex'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
});

test('agrees with node:crypto on every length 0..300 and on split updates, text and bytes', () => {
  const random = createRng(17);
  for (let n = 0; n <= 300; n++) {
    const bytes = Uint8Array.from({ length: n }, () => Math.floor(random.next() * 256));
    const cut = Math.floor(n / 3);
    const ours = createHash('sha256')
      .update(bytes.subarray(0, cut))
      .update('é\0')
      .update(bytes.subarray(cut))
      .digest('hex');
    const theirs = nodeHash('sha256')
      .update(bytes.subarray(0, cut))
      .update('é\0')
      .update(bytes.subarray(cut))
      .digest('hex');
    assert.equal(ours, theirs, `length ${n}`);
  }
});
