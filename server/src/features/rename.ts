/**
 * Rename a variable, value, hypothesis, network, data set or classifier at every use. A rename
 * that would make two things share a name in the same namespace is refused with a reason.
 */
import { ResponseError, ErrorCodes, type Position, type Range, type WorkspaceEdit } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import type { NameIndex, NameSymbol } from '../language/index.js';
import { nameIndex } from '../language/index.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function prepareRename(file: A.BayesFile, position: Position): { range: Range; placeholder: string } {
  const found = nameIndex(file).at(position);
  if (!found) throw new ResponseError(ErrorCodes.InvalidRequest, 'there is no declared name here to rename');
  if (!found.symbol.declaration && found.symbol.kind === 'state' && found.symbol.owner?.kind === 'variable') {
    throw new ResponseError(
      ErrorCodes.InvalidRequest,
      `'${found.symbol.name}' is a built-in value of a bool variable and cannot be renamed`,
    );
  }
  return { range: found.name.range, placeholder: found.name.text };
}

export function rename(file: A.BayesFile, uri: string, position: Position, newName: string): WorkspaceEdit {
  const index = nameIndex(file);
  const { placeholder } = prepareRename(file, position);
  const symbol = index.at(position)!.symbol;
  if (!IDENTIFIER.test(newName))
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `'${newName}' is not a name: use letters, digits and _, not starting with a digit`,
    );
  if (newName === placeholder) return { changes: { [uri]: [] } };
  const clash = clashWith(index, symbol, newName);
  if (clash) {
    const line = clash.declaration ? ` (line ${clash.declaration.range.start.line + 1})` : '';
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `cannot rename '${symbol.name}' to '${newName}': ${describe(clash)} '${newName}' already exists${line}`,
    );
  }
  return { changes: { [uri]: index.uses(symbol).map((o) => ({ range: o.name.range, newText: newName })) } };
}

/** Another symbol the new name would collide with: a sibling value, a variable of the same scope, a global. */
function clashWith(index: NameIndex, symbol: NameSymbol, newName: string): NameSymbol | undefined {
  if (symbol.kind === 'state' || symbol.kind === 'hypothesis') {
    return symbol.owner?.states?.find((s) => s.name === newName && s !== symbol);
  }
  const sameScope = index.scopes.get(symbol.scope)?.get(newName);
  if (sameScope && sameScope !== symbol) return sameScope;
  const global = index.globals.get(newName);
  if (global && global !== symbol && (symbol.scope === '' || global.kind !== 'variable')) return global;
  return undefined;
}

function describe(s: NameSymbol): string {
  return {
    variable: 'a variable',
    state: 'a value',
    hypotheses: 'a hypothesis space',
    hypothesis: 'a hypothesis',
    network: 'a network',
    data: 'a data set',
    column: 'a column',
    corpus: 'a corpus',
    classifier: 'a classifier',
    mixture: 'a mixture',
  }[s.kind];
}
