/** The outline: networks with their contents, hypothesis spaces with their hypotheses, tables, data, queries. */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import { lineStarts, sliceRange } from '../language/index.js';

/** The document's text and line starts, to cut statements out of. */
interface Source {
  text: string;
  starts: number[];
}

/** `starts`: the document's line starts when the caller has them (the editor's parse keeps them). */
export function documentSymbols(
  file: A.BayesFile,
  text: string,
  starts: number[] = lineStarts(text),
): DocumentSymbol[] {
  const source = { text, starts };
  return file.statements.flatMap((s) => statementSymbols(s, source));
}

function symbol(
  name: string,
  kind: SymbolKind,
  node: A.NodeBase,
  selection: A.NodeBase = node,
  children?: DocumentSymbol[],
  detail?: string,
): DocumentSymbol {
  return {
    name: name || '?',
    kind,
    range: node.range,
    selectionRange: selection.range,
    ...(children ? { children } : {}),
    ...(detail ? { detail } : {}),
  };
}

/** The statement's own source, on one line, for queries and tables. */
function sourceOf(node: A.NodeBase, source: Source): string {
  const one = sliceRange(source.text, source.starts, node.range).replace(/\s+/g, ' ').trim();
  return one.length > 80 ? one.slice(0, 79) + '…' : one;
}

function statementSymbols(s: A.Statement, text: Source): DocumentSymbol[] {
  switch (s.kind) {
    case 'variable': {
      const domain =
        s.domain.type === 'states' ? `{ ${s.domain.states.map((x) => x.text).join(', ')} }` : s.domain.type;
      return s.names.map((n) => symbol(n.text, SymbolKind.Variable, s, n, undefined, domain));
    }
    case 'hypotheses':
      return [
        symbol(
          s.name.text,
          SymbolKind.Enum,
          s,
          s.name,
          s.entries.map((e) => symbol(e.name.text, SymbolKind.EnumMember, e, e.name, undefined, e.prior?.text)),
          'hypotheses',
        ),
      ];
    case 'network':
      return [
        symbol(
          s.name.text,
          SymbolKind.Namespace,
          s,
          s.name,
          s.statements.flatMap((c) => statementSymbols(c, text)),
          'network',
        ),
      ];
    case 'import':
      return [symbol(s.name.text, SymbolKind.Namespace, s, s.name, undefined, `from "${s.path.value}"`)];
    case 'table':
      return [symbol(sourceOf(s.head, text), SymbolKind.Struct, s, s.head)];
    case 'data':
      return [
        symbol(
          s.name.text,
          SymbolKind.Struct,
          s,
          s.name,
          undefined,
          s.source ? `from "${s.source.value}"` : `${s.rows.length} rows`,
        ),
      ];
    case 'corpus':
      return [symbol(s.name.text, SymbolKind.Struct, s, s.name, undefined, `from "${s.source.value}"`)];
    case 'classifier':
      return [symbol(s.name.text, SymbolKind.Class, s, s.name, undefined, s.definition.callee.text)];
    case 'mixture':
      return [symbol(s.name.text, SymbolKind.Class, s, s.name, undefined, s.definition.callee.text)];
    case 'observe':
      return [symbol(sourceOf(s, text), SymbolKind.Event, s)];
    case 'learn':
      return [symbol(sourceOf(s, text), SymbolKind.Method, s, s.model)];
    case 'queryStatement':
      return [symbol(sourceOf(s, text), SymbolKind.Function, s)];
    case 'expectStatement':
      return [symbol(sourceOf(s, text), SymbolKind.Boolean, s)];
    case 'decision':
      return [symbol(s.name.text, SymbolKind.Variable, s, s.name, undefined, 'decision')];
    case 'utility':
      return [symbol(s.name.text, SymbolKind.Constant, s, s.name, undefined, 'utility')];
    case 'error':
      return [];
  }
}
