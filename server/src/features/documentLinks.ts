/**
 * Document links: the quoted file of each `import network`, `data … from` and `corpus … from`
 * opens the file (resolved against the model's folder; glob patterns are not links).
 */
import type { DocumentLink } from 'vscode-languageserver/node';
import { pathToFileURL } from 'node:url';
import type * as A from '../language/index.js';
import { allStatements } from '../language/index.js';
import { dirnameOf, globBase, resolvePath } from '../language/paths.js';

export function documentLinks(file: A.BayesFile, documentPath: string | undefined): DocumentLink[] {
  if (!documentPath) return [];
  const base = dirnameOf(documentPath);
  const links: DocumentLink[] = [];
  for (const s of allStatements(file)) {
    const path = s.kind === 'import' ? s.path : s.kind === 'data' || s.kind === 'corpus' ? s.source : undefined;
    if (!path || path.value.trim() === '' || globBase(path.value) !== undefined) continue;
    // The string's range includes its quotes: the link is the path inside them.
    const range = {
      start: { ...path.range.start, character: path.range.start.character + 1 },
      end: { ...path.range.end, character: Math.max(path.range.start.character + 1, path.range.end.character - 1) },
    };
    links.push({ range, target: pathToFileURL(resolvePath(base, path.value)).toString(), tooltip: 'Open the file' });
  }
  return links;
}
