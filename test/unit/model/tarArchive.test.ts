import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  ArchiveLimitError,
  gunzipTar,
  readTar,
  streamTarGz,
  type TarEntry,
} from '../../../server/src/model/tarArchive.js';
import { archiveBomb, manyEntries } from '../../support/hostileFiles.js';

/** One ustar header + data blocks, checksum computed as tar does (checksum field read as spaces). */
function tarEntry(name: string, data: Buffer, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 99), 0, 'latin1');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write(type, 156);
  header.write('ustar\0' + '00', 257);
  header.fill(32, 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

const longPath = `20news-bydate-train/${'very-long-newsgroup-name.'.repeat(6)}/1`;
// Bytes that are not text and span several 64 KiB chunks of the stream (as the test paces it).
const big = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7919) % 251));
const paxRecord = (path: string) => {
  const body = ` path=${path}\n`;
  let n = body.length + 2;
  if (`${n}${body}`.length !== n) n++;
  return Buffer.from(`${n}${body}`);
};
const archive = Buffer.concat([
  tarEntry('a/', Buffer.alloc(0), '5'),
  tarEntry('a/small.txt', Buffer.from('hello')),
  tarEntry('././@LongLink', Buffer.from(`${longPath}\0`), 'L'),
  tarEntry('truncated-name', Buffer.from('long name')),
  tarEntry('PaxHeader', paxRecord('pax/ünïcode path.txt'), 'x'),
  tarEntry('pax-short', Buffer.from('pax')),
  tarEntry('a/big.bin', big),
  tarEntry('a/empty', Buffer.alloc(0)),
  Buffer.alloc(1024),
]);
const expected = [
  ['a/small.txt', 'hello'],
  [longPath, 'long name'],
  ['pax/ünïcode path.txt', 'pax'],
  ['a/big.bin', big.toString('latin1')],
  ['a/empty', ''],
];
const summary = (entries: TarEntry[]) => entries.map((e) => [e.path, e.data.toString('latin1')]);

/** The archive's bytes at a given byte offset in memory (headers are summed 4 bytes at a time only when aligned). */
function at(offset: number, bytes: Buffer): Buffer {
  const copy = Buffer.from(new ArrayBuffer(bytes.length + 8), offset, bytes.length);
  bytes.copy(copy);
  return copy;
}

test('tar: ustar files, GNU long names, pax paths; directories skipped; file bytes exact', () => {
  for (const offset of [0, 1, 2, 4])
    assert.deepEqual(summary(readTar(at(offset, archive))), expected, `offset ${offset}`);
});

test('tar: a truncated archive or a corrupt header is an error, not a short file', () => {
  assert.throws(() => readTar(archive.subarray(0, archive.length - 1024 - 512 - 100_000)), /truncated/);
  const corrupt = Buffer.from(archive);
  corrupt[512 + 10] = 0x41; // inside the name of a/small.txt
  // A byte lower by 2 and another higher by 2 leave the sum alone but not the lanes of a sum by words.
  const swapped = Buffer.from(archive);
  swapped[512 + 100] -= 2;
  swapped[512 + 101] += 2;
  for (const offset of [0, 3]) {
    assert.throws(() => readTar(at(offset, corrupt)), /bad header checksum at byte 512/);
    assert.deepEqual(summary(readTar(at(offset, swapped))), expected, 'a checksum is a plain sum of bytes');
  }
});

test('tar.gz streamed: the same files as the whole-buffer reader, in archive order; errors reject', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-tar-'));
  try {
    const file = join(dir, 'a.tar.gz');
    writeFileSync(file, gzipSync(archive));
    // By default in one zlib chunk; then in many small ones, files handed over a few per turn.
    for (const pace of [{}, { inflateChunk: 1 << 16, parseTurn: 1 << 10 }]) {
      const streamed: TarEntry[] = [];
      await streamTarGz(readFileSync(file), (entry) => streamed.push(entry), pace);
      assert.deepEqual(summary(streamed), expected);
    }
    assert.deepEqual(summary(gunzipTar(readFileSync(file))), expected);
    const corrupt = Buffer.from(archive);
    corrupt[512 * 9] ^= 1; // the header of a/big.bin
    writeFileSync(file, gzipSync(corrupt));
    await assert.rejects(
      streamTarGz(readFileSync(file), () => {}, { inflateChunk: 1 << 16 }),
      /bad header checksum/,
      'checksum',
    );
    const gz = gzipSync(archive);
    writeFileSync(file, gz.subarray(0, gz.length >> 1));
    await assert.rejects(
      streamTarGz(readFileSync(file), () => {}),
      /unexpected end of file/,
      'truncated gz',
    );
    await assert.rejects(
      streamTarGz(readFileSync(file), () => {
        throw new Error('caller failed');
      }),
      /caller failed|unexpected end/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archive bombs: refused at the expanded-bytes cap while inflating, whole or streamed; entry count capped', async () => {
  const bomb = archiveBomb(2048); // 2 MB that expand to 2 GiB
  assert.ok(bomb.length < 2_500_000);
  const before = process.resourceUsage().maxRSS * 1024;
  const t0 = performance.now();
  assert.throws(
    () => gunzipTar(bomb),
    (e) => e instanceof ArchiveLimitError && /more than 256 MB.*bayes\.archive\.maxExpandedMb/.test(e.message),
  );
  await assert.rejects(
    streamTarGz(bomb, () => {}),
    (e) => e instanceof ArchiveLimitError && /more than 256 MB/.test(e.message),
  );
  // A hang detector (inflating 2 GiB would take minutes); the cap itself is checked on memory below.
  assert.ok(performance.now() - t0 < 60_000, 'refused within a minute');
  // Never inflated past the cap (256 MB, once whole and once streamed): the peak grew by far less than 2 GiB.
  const grown = process.resourceUsage().maxRSS * 1024 - before;
  assert.ok(grown < 700 * 2 ** 20, `the peak memory grew by ${(grown / 2 ** 20).toFixed(0)} MB`);
  // A small cap refuses early; the same archive fits a larger one.
  assert.throws(() => gunzipTar(archiveBomb(3), { maxBytes: 2 << 20, maxEntries: 10 }), /more than 2 MB/);
  assert.equal(gunzipTar(archiveBomb(3), { maxBytes: 4 << 20, maxEntries: 10 }).length, 1);
  // Entries: 2,000 empty posts under a cap of 1,000.
  const many = manyEntries(2000);
  assert.throws(
    () => gunzipTar(many, { maxBytes: 1 << 30, maxEntries: 1000 }),
    /more than 1000 entries.*bayes\.archive\.maxEntries/,
  );
  await assert.rejects(
    streamTarGz(many, () => {}, {}, { maxBytes: 1 << 30, maxEntries: 1000 }),
    /more than 1000 entries/,
  );
  assert.equal(gunzipTar(many, { maxBytes: 1 << 30, maxEntries: 2000 }).length, 2000);
});

/** The header's size field rewritten (GNU base-256 or junk), its checksum recomputed. */
function withSizeField(entry: Buffer, field: Buffer): Buffer {
  const out = Buffer.from(entry);
  field.copy(out, 124);
  out.fill(32, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += out[i]!;
  out.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return out;
}

test('tar: GNU base-256 sizes are read; a size field that is neither octal nor base-256 is an error', () => {
  const texts = Array.from({ length: 12 }, (_, i) => `document ${i} `.repeat(40 + i));
  const docs = texts.map((t, i) => tarEntry(`c${i % 3}/${i}.txt`, Buffer.from(t)));
  const base256 = (n: number) => {
    const f = Buffer.alloc(12);
    f[0] = 0x80;
    f.writeUIntBE(n, 6, 6);
    return f;
  };
  const end = Buffer.alloc(1024);
  // the 8th document's size written in base-256, as GNU tar does for 8 GB and more (it stopped there, exit 0)
  const gnu = docs.map((d, i) => (i === 7 ? withSizeField(d, base256(texts[7]!.length)) : d));
  assert.deepEqual(
    readTar(Buffer.concat([...gnu, end])).map((e) => e.data.toString()),
    texts,
  );
  const junk = Buffer.from('\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4', 'latin1');
  const bad = docs.map((d, i) => (i === 7 ? withSizeField(d, junk) : d));
  assert.throws(
    () => readTar(Buffer.concat([...bad, end])),
    /tar: the header at byte \d+ has a size that cannot be read/,
  );
});
