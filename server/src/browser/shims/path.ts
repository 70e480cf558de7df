/** node:path (POSIX) for the web build: paths there are the URI paths of workspace files. */
import { dirnameOf, resolvePath } from '../../language/paths.js';

export const sep = '/';
export function resolve(...parts: string[]): string {
  return parts.reduce((base, part) => resolvePath(base, part), '/');
}
export function join(...parts: string[]): string {
  return resolvePath('/', parts.join('/')).slice(parts[0]?.startsWith('/') ? 0 : 1) || '.';
}
export function dirname(path: string): string {
  return dirnameOf(path);
}
export function basename(path: string, ext?: string): string {
  const base = path.replace(/\/+$/, '').split('/').pop() ?? '';
  return ext && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
}
export function extname(path: string): string {
  const base = basename(path);
  const i = base.lastIndexOf('.');
  return i <= 0 ? '' : base.slice(i);
}
export function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}
export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
/** Paths on the web are POSIX already: `posix` is the module itself. */
export const posix = { sep, resolve, join, dirname, basename, extname, isAbsolute, relative };
export default { ...posix, posix };
