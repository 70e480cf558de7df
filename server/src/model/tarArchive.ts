/**
 * A small reader for (gzipped) tar archives: POSIX ustar, GNU long names ('L') and pax path
 * records ('x'). Written here instead of using a streaming package because the corpora are read
 * whole: one buffer of zero-copy file views is the fastest way to 18,846 news posts, and the
 * streaming variant only has to overlap decompression with the caller's work on each file.
 * Archives are budgets too (an archive bomb expands a few KB to gigabytes): the expanded bytes
 * and the entry count are capped, checked as the archive inflates — zlib never produces more than
 * the cap — and refused with an ArchiveLimitError naming the cap.
 */
import { createGunzip, gunzipSync } from 'node:zlib';
import { DEFAULT_FILE_LIMITS, megabytes } from '../language/environment.js';

export interface TarEntry {
  path: string;
  /** A view into the unpacked archive (no copy). */
  data: Buffer;
}

const BLOCK = 512;

/** Caps on an archive: expanded bytes and entries (settings bayes.archive.maxExpandedMb, bayes.archive.maxEntries). */
export interface ArchiveLimits {
  maxBytes: number;
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxBytes: DEFAULT_FILE_LIMITS.maxArchiveBytes,
  maxEntries: DEFAULT_FILE_LIMITS.maxArchiveEntries,
};

/** An archive over a cap; the message names the cap and its setting. */
export class ArchiveLimitError extends Error {}

function tooLarge(limits: ArchiveLimits): ArchiveLimitError {
  return new ArchiveLimitError(
    `the archive expands to more than ${megabytes(limits.maxBytes)}, its limit` +
      ' (setting bayes.archive.maxExpandedMb); it is not read',
  );
}

function tooMany(limits: ArchiveLimits): ArchiveLimitError {
  return new ArchiveLimitError(
    `the archive holds more than ${limits.maxEntries} entries, its limit` +
      ' (setting bayes.archive.maxEntries); it is not read',
  );
}

/**
 * The files of a .tar.gz already in memory; one output buffer sized from the gzip trailer (no
 * concatenation). zlib stops at the cap (maxOutputLength): a bomb never inflates past it.
 */
export function gunzipTar(gz: Uint8Array, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): TarEntry[] {
  let archive: Buffer;
  try {
    archive = gunzipSync(gz, { chunkSize: outputSizeHint(gz, limits), maxOutputLength: Math.max(1, limits.maxBytes) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw tooLarge(limits);
    throw e;
  }
  return readTar(archive, limits);
}

export function readTar(archive: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): TarEntry[] {
  const entries: TarEntry[] = [];
  new TarParser((entry) => entries.push(entry), limits).parse(archive, archive.length, true);
  return entries;
}

/**
 * Reads a .tar.gz while it is being decompressed: zlib inflates on libuv's thread pool while
 * this thread handles each file (`onFile`, called in archive order) as soon as its last byte
 * is out. Files are views into one buffer sized from the gzip trailer, so nothing is copied
 * twice and a view never moves.
 */
export async function streamTarGz(
  gz: Uint8Array,
  onFile: (entry: TarEntry) => void,
  pace: StreamPace = {},
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<void> {
  const { inflateChunk = 1 << 22, parseTurn = 1 << 19 } = pace;
  let archive = Buffer.allocUnsafe(outputSizeHint(gz, limits));
  let length = 0,
    scheduled = false,
    ended = false;
  const parser = new TarParser(onFile, limits);
  // zlib inflates one chunk per call from this thread: chunks much larger than the files handed
  // to `onFile` per turn let it run ahead instead of waiting for this thread between chunks.
  const gunzip = createGunzip({ chunkSize: inflateChunk });
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      scheduled = false;
      try {
        if (parser.parse(archive, length, ended, parseTurn)) schedule();
        else if (ended) resolve();
      } catch (error) {
        gunzip.destroy();
        reject(error);
      }
    };
    // 'data' runs before zlib queues its next chunk: parsing right here would leave the
    // thread pool idle, so parse on the next turn of the event loop instead.
    const schedule = () => {
      if (!scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (length + chunk.length > limits.maxBytes) {
        gunzip.destroy();
        reject(tooLarge(limits));
        return;
      }
      if (length + chunk.length > archive.length) {
        // a wrong trailer (multi-member, > 4 GiB): grow; old views stay valid
        const size = Math.min(Math.max(archive.length * 2, length + chunk.length), limits.maxBytes);
        const grown = Buffer.allocUnsafe(size);
        archive.copy(grown, 0, 0, length);
        archive = grown;
      }
      chunk.copy(archive, length);
      length += chunk.length;
      schedule();
    });
    gunzip.on('end', () => {
      ended = true;
      schedule();
    });
    gunzip.on('error', reject);
    gunzip.end(gz);
  });
}

/**
 * How streamTarGz shares this thread: zlib inflates `inflateChunk` bytes per call; files of about
 * `parseTurn` bytes are handed to `onFile` per turn of the event loop, then zlib's callback gets
 * its turn. 4 MiB and 512 KiB were 3–8% faster on 20 Newsgroups than one 256 KiB chunk per turn.
 */
export interface StreamPace {
  inflateChunk?: number;
  parseTurn?: number;
}

/**
 * The uncompressed size a gzip file records in its last 4 bytes (mod 2^32), bounded: by the cap,
 * and by deflate's largest ratio (1032:1), so a forged trailer cannot make us allocate more.
 */
function outputSizeHint(gz: Uint8Array, limits: ArchiveLimits): number {
  const n = gz.length,
    size = n >= 18 ? (gz[n - 4]! | (gz[n - 3]! << 8) | (gz[n - 2]! << 16)) + gz[n - 1]! * 2 ** 24 : 0;
  return Math.max(1 << 16, Math.min(size, 1 << 30, limits.maxBytes, n * 1032 + 1024));
}

/** Parses tar headers incrementally: each call goes as far as the bytes available allow. */
class TarParser {
  private offset = 0;
  private longName: string | undefined;
  private ended = false;
  private entries = 0;
  constructor(
    private readonly onFile: (entry: TarEntry) => void,
    private readonly limits: ArchiveLimits,
  ) {}

  /**
   * Emits every file whose bytes lie within archive[0, available); `last`: no more bytes will
   * come. True when it stopped early, having emitted `budget` bytes of files.
   */
  parse(archive: Buffer, available: number, last: boolean, budget = Infinity): boolean {
    for (let emitted = 0; !this.ended && this.offset + BLOCK <= available;) {
      if (emitted >= budget) return true;
      const offset = this.offset;
      const header = archive.subarray(offset, offset + BLOCK);
      if (header[0] === 0 && isZeroBlock(header)) {
        this.ended = true;
        break;
      } // end-of-archive marker (a real header has a name)
      if (!checksumOk(header)) throw new Error(`tar: bad header checksum at byte ${offset}`);
      if (++this.entries > this.limits.maxEntries) throw tooMany(this.limits);
      const size = sizeField(header.subarray(124, 136), offset);
      if (offset + BLOCK + size > available) {
        if (last) throw new Error(`tar: the file at byte ${offset} is truncated (${size} bytes announced)`);
        break; // the rest of this file is still to come
      }
      const type = String.fromCharCode(header[156]!);
      const data = archive.subarray(offset + BLOCK, offset + BLOCK + size);
      this.offset = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
      if (type === 'L') {
        this.longName = cString(data);
        continue;
      }
      if (type === 'x') {
        this.longName = paxPath(data) ?? this.longName;
        continue;
      }
      const path = this.longName ?? ustarPath(header);
      this.longName = undefined;
      if (type === '0' || type === '\0') {
        this.onFile({ path, data });
        emitted += size;
      }
    }
    return false;
  }
}

function isZeroBlock(block: Buffer): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.toString('utf8', 0, end < 0 ? bytes.length : end);
}

/**
 * A file's size: octal, or GNU's base-256 for 8 GB and more (the first byte 0x80, then the value
 * big-endian; 0xff would be negative). One that is neither is an error: NaN made the reader stop
 * at that file and return the ones before it as if the archive had ended.
 */
function sizeField(field: Buffer, offset: number): number {
  let size: number;
  if (field[0] === 0x80) {
    size = 0;
    for (let i = 1; i < field.length; i++) size = size * 256 + field[i]!;
  } else size = octal(field);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new Error(`tar: the header at byte ${offset} has a size that cannot be read`);
  }
  return size;
}

/**
 * A number field: octal digits, possibly after spaces and before anything (as parseInt reads
 * them), or blank. The usual forms are read straight from the bytes (decoding two fields per
 * header as text showed in profiles of reading 20 Newsgroups); anything else as text.
 */
function octal(field: Buffer): number {
  let i = 0,
    value = 0;
  while (i < field.length && field[i] === 32) i++;
  const first = i;
  for (let digit; i < field.length && (digit = field[i]! - 48) >= 0 && digit < 8; i++) value = value * 8 + digit;
  if (i > first) return value;
  if (i === field.length || field[i] === 0) return 0;
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

const USTAR = [...'ustar'].map((c) => c.charCodeAt(0));

function ustarPath(header: Buffer): string {
  const name = cString(header.subarray(0, 100));
  const isUstar = USTAR.every((c, i) => header[257 + i] === c);
  const prefix = isUstar && header[345] !== 0 ? cString(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** The header's bytes sum to its checksum field, which counts as eight spaces. */
function checksumOk(header: Buffer): boolean {
  let sum = 8 * 32 + byteSum(header);
  for (let i = 148; i < 156; i++) sum -= header[i]!;
  return sum === octal(header.subarray(148, 156));
}

/**
 * The sum of a block's 512 bytes. Four bytes per load when the block is aligned (a header in an
 * archive read whole is): bytes 0 and 2 of each word are added in one 16-bit lane, 1 and 3 in
 * the other, and 128 words add at most 128 · 510 < 2^16 per lane. Byte by byte, the checksums
 * took a third of reading 20 Newsgroups' tar.
 */
function byteSum(block: Buffer): number {
  if ((block.byteOffset & 3) !== 0) {
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += block[i]!;
    return sum;
  }
  const words = new Int32Array(block.buffer, block.byteOffset, BLOCK / 4);
  let lanes = 0;
  for (let i = 0; i < words.length; i++) {
    const x = words[i]!;
    lanes += (x & 0xff00ff) + ((x >>> 8) & 0xff00ff);
  }
  return (lanes & 0xffff) + Math.floor(lanes / 0x10000);
}

/** The `path=` record of a pax extended header, if any ("<len> path=<value>\n"). */
function paxPath(data: Buffer): string | undefined {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
  return match?.[1];
}
