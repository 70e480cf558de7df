/**
 * Workspace symbols: the declarations (variables, hypothesis spaces, networks, data sets, …) of
 * every open model whose name contains the query, case-insensitively.
 */
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver/node';

export function workspaceSymbols(
  documents: Iterable<{ uri: string; symbols: DocumentSymbol[] }>,
  query: string,
  limit = 500,
): SymbolInformation[] {
  const q = query.trim().toLowerCase();
  const out: SymbolInformation[] = [];
  const visit = (uri: string, symbols: DocumentSymbol[], container?: string) => {
    for (const s of symbols) {
      if (out.length >= limit) return;
      if (s.name.toLowerCase().includes(q)) {
        const location = { uri, range: s.selectionRange };
        out.push({ name: s.name, kind: s.kind, location, ...(container ? { containerName: container } : {}) });
      }
      if (s.children) visit(uri, s.children, s.name);
    }
  };
  for (const d of documents) visit(d.uri, d.symbols);
  return out;
}
