/**
 * Text corpora for text classification, labelled by folder. The 20 Newsgroups "bydate" archive
 * holds 20news-bydate-{train,test}/<newsgroup>/<post>; a post's class is its newsgroup. Posts are
 * decoded as Latin-1 (as scikit-learn's loader does: every byte is a character, no decode errors)
 * and kept whole, headers included, as Mitchell's experiment used the raw articles.
 */
import { DEFAULT_ARCHIVE_LIMITS, gunzipTar, streamTarGz, type ArchiveLimits, type TarEntry } from './tarArchive.js';

export interface LabelledCorpus {
  /** Document bytes (Latin-1), ordered by class name then path; views into the archive. */
  documents: Uint8Array[];
  paths: string[];
  labels: Int32Array;
  /** Class names in alphabetical order (label c = classNames[c]). */
  classNames: string[];
  /** For split archives: 0 = in the training part, 1 = in the test part. */
  part: Uint8Array;
}

export type NewsSubset = 'all' | 'train' | 'test';

/** The corpus of a .tar.gz's bytes (read by the caller, through its confined reads). */
export function loadNewsgroups(
  archive: Uint8Array,
  subset: NewsSubset = 'all',
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): LabelledCorpus {
  return newsgroupsFromEntries(gunzipTar(archive, limits), subset);
}

/** The same from archive entries already read (a host that reads files its own way). */
export function newsgroupsFromEntries(entries: readonly TarEntry[], subset: NewsSubset = 'all'): LabelledCorpus {
  const posts: Post[] = [];
  for (const entry of entries) {
    const post = postOf(entry, subset, posts.length);
    if (post) posts.push(post);
  }
  return labelByFolder(posts);
}

/**
 * The same, read while the archive is decompressed: `onPost` sees each post (of the subset) as
 * soon as it is out, in archive order, so the caller's work on it (tokenizing) overlaps the
 * decompression. `arrival[d]` = the position in that order of corpus document d.
 */
export async function streamNewsgroups(
  archive: Uint8Array,
  subset: NewsSubset,
  onPost: (data: Uint8Array) => void,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<LabelledCorpus & { arrival: Int32Array }> {
  const posts: Post[] = [];
  await streamTarGz(
    archive,
    (entry) => {
      const post = postOf(entry, subset, posts.length);
      if (post) {
        posts.push(post);
        onPost(post.data);
      }
    },
    {},
    limits,
  );
  const sorted = labelByFolder(posts); // sorts `posts` in place
  return { ...sorted, arrival: Int32Array.from(posts, (p) => p.arrival) };
}

/**
 * A post: `arrival` is its position among the posts in archive order, `name` its file name;
 * `label` and `directory` (a number per directory) are set for sorting.
 */
interface Post {
  path: string;
  folder: string;
  name: string;
  test: boolean;
  data: Buffer;
  arrival: number;
  label: number;
  directory: number;
}

/** The post an archive entry holds (<part>-train|test/<newsgroup>/<file>), if it is one of the subset. */
function postOf(entry: TarEntry, subset: NewsSubset, arrival: number): Post | undefined {
  const parts = entry.path.split('/').filter((p) => p !== '' && p !== '.');
  const partName = parts[parts.length - 3];
  if (parts.length < 3 || !partName || !/-(train|test)$/.test(partName)) return undefined;
  const test = partName.endsWith('-test');
  if (subset !== 'all' && test !== (subset === 'test')) return undefined;
  return {
    path: entry.path,
    folder: parts[parts.length - 2]!,
    name: parts[parts.length - 1]!,
    test,
    data: entry.data,
    arrival,
    label: 0,
    directory: 0,
  };
}

function labelByFolder(files: Post[]): LabelledCorpus {
  const classNames = [...new Set(files.map((f) => f.folder))].sort();
  const classOf = new Map(classNames.map((c, i) => [c, i]));
  // By folder, then path. Most comparisons are between posts of one directory, whose paths
  // differ only in the file name: those compare names (and folders as class numbers), which
  // halved the time of this sort on 20 Newsgroups; posts in different directories compare paths.
  const directories = new Map<string, number>();
  for (const f of files) {
    f.label = classOf.get(f.folder)!;
    // path = directory + name, or (a path not ending in its name) a key of its own.
    const directory = f.path.endsWith(`/${f.name}`) ? f.path.slice(0, f.path.length - f.name.length) : `\0${f.path}`;
    f.directory = directories.get(directory) ?? directories.set(directory, directories.size).size - 1;
  }
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  files.sort(
    (a, b) => a.label - b.label || (a.directory === b.directory ? compare(a.name, b.name) : compare(a.path, b.path)),
  );
  return {
    documents: files.map((f) => f.data),
    paths: files.map((f) => f.path),
    labels: Int32Array.from(files, (f) => f.label),
    classNames,
    part: Uint8Array.from(files, (f) => (f.test ? 1 : 0)),
  };
}

/** Documents of one part (0 = train, 1 = test) as row indices. */
export function documentsInPart(corpus: LabelledCorpus, part: 0 | 1): Int32Array {
  const rows: number[] = [];
  corpus.part.forEach((p, i) => {
    if (p === part) rows.push(i);
  });
  return Int32Array.from(rows);
}

/** Document d as a string (Latin-1: each byte is one character). */
export function documentText(corpus: LabelledCorpus, d: number): string {
  return Buffer.from(corpus.documents[d]!).toString('latin1');
}
