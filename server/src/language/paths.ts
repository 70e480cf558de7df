/**
 * Paths named in a model (`data T from "x.csv"`), resolved against the model's folder and
 * confined to the allowed roots. Written without node:path so the front end stays portable
 * (the server, the CLI and a browser host all use it); separators are normalised to `/`.
 */

function normalise(path: string): string {
  const absolute = path.startsWith('/');
  const drive = /^[A-Za-z]:\//.exec(path)?.[0] ?? '';
  const parts: string[] = [];
  for (const part of path.slice(drive.length).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0) parts.pop();
      continue;
    }
    parts.push(part);
  }
  return drive + (absolute ? '/' : '') + parts.join('/');
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:\//.test(path);
}

export function dirnameOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  const i = p.lastIndexOf('/');
  return i <= 0 ? (i === 0 ? '/' : '.') : p.slice(0, i);
}

/** `relative` resolved against the folder `base`. */
export function resolvePath(base: string, relative: string): string {
  const rel = relative.replace(/\\/g, '/');
  return normalise(isAbsolute(rel) ? rel : `${base.replace(/\\/g, '/')}/${rel}`);
}

export function isInside(root: string, path: string): boolean {
  const r = normalise(root.replace(/\\/g, '/'));
  const p = normalise(path.replace(/\\/g, '/'));
  return p === r || p.startsWith(r.endsWith('/') ? r : r + '/');
}

/** The part of a glob before its first wildcard: `news/**\/*.txt` → `news`. */
export function globBase(pattern: string): string | undefined {
  const i = pattern.search(/[*?[{]/);
  if (i < 0) return undefined;
  const head = pattern.slice(0, i);
  return head.includes('/') ? head.slice(0, head.lastIndexOf('/')) || '.' : '.';
}
