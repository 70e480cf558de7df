/** Go to definition and find references, over the name index. */
import type { Location, Position } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import { nameIndex } from '../language/index.js';

export function definition(file: A.BayesFile, uri: string, position: Position): Location | undefined {
  const declaration = nameIndex(file).at(position)?.symbol.declaration;
  return declaration ? { uri, range: declaration.range } : undefined;
}

export function references(
  file: A.BayesFile,
  uri: string,
  position: Position,
  includeDeclaration: boolean,
): Location[] {
  const index = nameIndex(file);
  const found = index.at(position);
  if (!found) return [];
  return index
    .uses(found.symbol)
    .filter((o) => includeDeclaration || !o.declaration)
    .map((o) => ({ uri, range: o.name.range }));
}
