/**
 * Hostile files for the confinement tests: a workspace whose data files are symbolic links out
 * of it (to a secret marked file), link chains, a FIFO, /dev/zero behind a link, a folder named
 * like a CSV, a sparse 2.5 GB file, and archive bombs built in memory (a few hundred KB that
 * expand past the caps).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Appears in every secret file; must never appear in anything the server or CLI shows. */
export const SECRET = 'SECRET_MARKER_5f3a9c';

/** One ustar header for a file of `size` bytes (the data follows, padded to 512). */
export function tarHeader(name: string, size: number, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 99), 0, 'latin1');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write(type, 156);
  header.write('ustar\0' + '00', 257);
  header.fill(32, 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/**
 * A .tar.gz of one post of `mb` MiB of zeros: gzip members concatenated (a reader inflates them
 * all), one MiB of zeros each, so the file is about 1 KB per MiB it expands to.
 */
export function archiveBomb(mb: number): Buffer {
  const zeros = gzipSync(Buffer.alloc(1 << 20), { level: 9 });
  const members = [gzipSync(tarHeader('20news-bydate-train/alt.bomb/1', mb * 2 ** 20))];
  for (let i = 0; i < mb; i++) members.push(zeros);
  return Buffer.concat(members);
}

/** A .tar.gz of `n` empty posts: small, with many entries. */
export function manyEntries(n: number): Buffer {
  const header = tarHeader('20news-bydate-train/alt.many/x', 0);
  const blocks = Buffer.alloc(512 * n);
  for (let i = 0; i < n; i++) header.copy(blocks, 512 * i);
  return gzipSync(Buffer.concat([blocks, Buffer.alloc(1024)]));
}

export interface HostileTree {
  root: string;
  workspace: string;
  outside: string;
  /** The model's folder inside the workspace. */
  models: string;
}

/** Builds the tree: workspace/models/* are what models name; outside/ holds the secrets. */
export function hostileTree(): HostileTree {
  const root = mkdtempSync(join(tmpdir(), 'bayes-hostile-'));
  const workspace = join(root, 'workspace');
  const outside = join(root, 'outside');
  const models = join(workspace, 'models');
  mkdirSync(models, { recursive: true });
  mkdirSync(join(outside, 'news'), { recursive: true });
  const secretCsv = `${SECRET},${SECRET}_b\n${SECRET}_1,${SECRET}_2\n`;
  writeFileSync(join(outside, 'secret.csv'), secretCsv);
  writeFileSync(
    join(outside, 'secret.bif'),
    `network ${SECRET} {}\nvariable ${SECRET} { type discrete [ 2 ] { a, b }; }\n`,
  );
  writeFileSync(join(outside, 'news', 'secret.txt'), SECRET);
  writeFileSync(join(models, 'good.csv'), 'a,b\n1,2\n3,4\n');
  const link = (target: string, name: string) => symlinkSync(target, join(models, name));
  link(join(outside, 'secret.csv'), 'link.csv');
  link(join(outside, 'secret.bif'), 'link.bif');
  link('chain2.csv', 'chain1.csv');
  link('chain3.csv', 'chain2.csv');
  link('../../outside/secret.csv', 'chain3.csv');
  link('inchain2.csv', 'inchain1.csv');
  link('good.csv', 'inchain2.csv');
  link('/dev/zero', 'zero.csv');
  link(outside, 'linkdir');
  link('loop2.csv', 'loop1.csv');
  link('loop1.csv', 'loop2.csv');
  execFileSync('mkfifo', [join(models, 'pipe.csv')]);
  mkdirSync(join(models, 'folder.csv'));
  // 2.5 GB, sparse: no blocks written.
  const fd = openSync(join(models, 'big.csv'), 'w');
  ftruncateSync(fd, Math.round(2.5 * 2 ** 30));
  closeSync(fd);
  writeFileSync(join(models, 'bomb.tar.gz'), archiveBomb(300));
  return { root, workspace, outside, models };
}
