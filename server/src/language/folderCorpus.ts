/**
 * Corpora of files in folders: the files a folder or glob path names, listed through the host's
 * confined listing (CheckEnvironment.listFiles), for the checker and for runs alike.
 */
import type { CheckEnvironment } from './environment.js';
import { FileRefusedError, problemText } from './environment.js';
import { pathProblemMessage } from './files.js';
import { dirnameOf, globBase, isInside, resolvePath } from './paths.js';

/** A listed file: its path as the model would write it, and the absolute path to read. */
export interface ListedFile {
  written: string;
  absolute: string;
}

/** A corpus path that is a folder or a glob (not an archive). */
export function isArchivePath(written: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(written);
}

/** Characters × pattern states the glob matcher visits: tests hold it to |path| × |pattern|. */
export const globWork = { steps: 0 };

const enum Glob {
  /** A literal character. */
  Char,
  /** `?`: one character of a name. */
  One,
  /** `*`: any characters of one name (stays; ε to the next state). */
  Name,
  /** `**` not before `/`: any characters, `/` too. */
  Any,
  /** `**` + `/`: whole folders, none too: ε to the state after the next; a name char leads to InFolder. */
  Folders,
  /** Inside a folder name of `**` + `/`: more name characters, or `/` back to Folders. */
  InFolder,
}

/**
 * `**` any folders (none too), `*` and `?` within one name; the pattern is relative to its folder.
 * Matched by running the pattern as an automaton over the path — every state at once, one pass —
 * so the work is at most |path| × |pattern| whatever the wildcards: a compiled regular expression
 * backtracked (`**a**a…a**c` against a 40-character name took 45 s).
 */
export function globMatcher(pattern: string): (relative: string) => boolean {
  const kinds: Glob[] = [];
  const chars: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        kinds.push(Glob.Folders, Glob.InFolder);
        chars.push(0, 0);
        continue;
      }
      kinds.push(Glob.Any);
    } else kinds.push(c === '*' ? Glob.Name : c === '?' ? Glob.One : Glob.Char);
    chars.push(c.charCodeAt(0));
  }
  const end = kinds.length;
  return (relative) => {
    let now = new Uint8Array(end + 1);
    let next = new Uint8Array(end + 1);
    now[0] = 1;
    closeOver(kinds, now);
    for (let p = 0; p < relative.length; p++) {
      const c = relative.charCodeAt(p);
      const slash = c === 47;
      next.fill(0);
      let any = false;
      for (let s = 0; s < end; s++) {
        if (!now[s]) continue;
        globWork.steps++;
        const kind = kinds[s]!;
        if (kind === Glob.Char) {
          if (c === chars[s]) next[s + 1] = 1;
        } else if (kind === Glob.One) {
          if (!slash) next[s + 1] = 1;
        } else if (kind === Glob.Name) {
          if (!slash) next[s] = 1;
        } else if (kind === Glob.Any) next[s] = 1;
        else if (kind === Glob.Folders) {
          if (!slash) next[s + 1] = 1;
        } else if (slash)
          next[s - 1] = 1; // InFolder: the folder name ends
        else next[s] = 1;
      }
      closeOver(kinds, next);
      for (let s = 0; s <= end && !any; s++) any = next[s] === 1;
      if (!any) return false;
      [now, next] = [next, now];
    }
    return now[end] === 1;
  };
}

/** Adds the states reached without a character: past `*`, `**` (and `**` + `/` to after its folder state). */
function closeOver(kinds: readonly Glob[], active: Uint8Array): void {
  for (let s = 0; s < kinds.length; s++) {
    if (!active[s]) continue;
    const kind = kinds[s]!;
    if (kind === Glob.Name || kind === Glob.Any) active[s + 1] = 1;
    else if (kind === Glob.Folders) active[s + 2] = 1;
  }
}

/**
 * The files of a folder corpus: every regular file under a folder (`"news"`), or those a glob
 * matches (`"news/**\/*.txt"`), each with its path as written (folder as the model writes it, then
 * the path under it). Refusals (a link out of the roots, a FIFO among the files, too many files)
 * and an empty result are errors, worded for the path's range.
 */
export function listCorpusFolder(written: string, env: CheckEnvironment): { files: ListedFile[] } | { error: string } {
  const base = globBase(written);
  const folderWritten = base ?? written.replace(/\/+$/, '');
  const patternStart = base === '.' && !written.startsWith('./') ? 0 : (base?.length ?? 0) + 1;
  const pattern = base === undefined ? undefined : written.slice(patternStart);
  if (pattern !== undefined && pattern.split('/').includes('..')) {
    return { error: `"${written}": a glob may not climb out of its folder with '..'` };
  }
  const from = env.documentPath ? dirnameOf(env.documentPath) : env.allowedRoots[0];
  if (from === undefined) return { error: `cannot read "${written}"` };
  const folder = resolvePath(from, folderWritten);
  if (!env.allowedRoots.some((root) => isInside(root, folder))) {
    return {
      error:
        `"${written}" is outside the workspace and the data roots; add its folder as a data root` +
        ' (bayes.dataRoots, or --data-root on the command line)',
    };
  }
  if (!env.listFiles) {
    return { error: 'files are not read in restricted mode (the workspace is not trusted)' };
  }
  let files: string[];
  try {
    files = env.listFiles(folder);
  } catch (e) {
    if (e instanceof FileRefusedError) {
      const at = e.message.slice(0, e.message.length - problemText(e.problem).length - 2);
      const rel = at === folder ? '' : at.slice(folder.length + 1);
      return {
        error: rel
          ? pathProblemMessage(`${folderWritten}/${rel}`, e.problem)
          : pathProblemMessage(written, e.problem, folder),
      };
    }
    return { error: `"${written}": ${(e as Error).message}` };
  }
  const matches = pattern === undefined ? undefined : globMatcher(pattern);
  const chosen = files
    .map((absolute) => ({
      absolute,
      rel: absolute
        .slice(folder.length + 1)
        .split('\\')
        .join('/'),
    }))
    .filter((f) => !matches || matches(f.rel))
    .map((f) => ({ absolute: f.absolute, written: `${folderWritten}/${f.rel}` }));
  if (chosen.length === 0) {
    return {
      error:
        pattern === undefined
          ? `"${written}" holds no documents (no regular files under it)`
          : `"${written}" matches no files`,
    };
  }
  return { files: chosen };
}
