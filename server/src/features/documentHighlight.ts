/** Document highlight: every use of the name under the cursor, its declaration marked as a write. */
import { DocumentHighlightKind, type DocumentHighlight, type Position } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import { nameIndex } from '../language/index.js';

export function documentHighlights(file: A.BayesFile, position: Position): DocumentHighlight[] {
  const index = nameIndex(file);
  const found = index.at(position);
  if (!found) return [];
  return index.uses(found.symbol).map((o) => ({
    range: o.name.range,
    kind: o.declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}
