/**
 * A small synchronous reader for (gzipped) tar archives: POSIX ustar, GNU long names ('L') and
 * pax path records ('x'). Written here instead of using a streaming package because the corpora
 * are read whole and at once: one gunzip into memory and zero-copy file views is the fastest way
 * to 18,846 news posts, and it avoids a dependency for ~60 lines.
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

export interface TarEntry {
  path: string;
  /** A view into the unpacked archive (no copy). */
  data: Buffer;
}

const BLOCK = 512;

export function readTarGz(file: string): TarEntry[] {
  return readTar(gunzipSync(readFileSync(file)));
}

export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header[0] === 0 && isZeroBlock(header)) break; // end-of-archive marker (a real header has a name)
    if (!checksumOk(header)) throw new Error(`tar: bad header checksum at byte ${offset}`);
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156]!);
    const data = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') { longName = cString(data); continue; }
    if (type === 'x') { longName = paxPath(data) ?? longName; continue; }
    const path = longName ?? ustarPath(header);
    longName = undefined;
    if (type === '0' || type === '\0') entries.push({ path, data });
  }
  return entries;
}

function isZeroBlock(block: Buffer): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.toString('utf8', 0, end < 0 ? bytes.length : end);
}

function octal(field: Buffer): number {
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function ustarPath(header: Buffer): string {
  const name = cString(header.subarray(0, 100));
  const isUstar = header.toString('latin1', 257, 262) === 'ustar';
  const prefix = isUstar ? cString(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return sum === octal(header.subarray(148, 156));
}

/** The `path=` record of a pax extended header, if any ("<len> path=<value>\n"). */
function paxPath(data: Buffer): string | undefined {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
  return match?.[1];
}
