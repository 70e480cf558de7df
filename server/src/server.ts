/**
 * The language server: a connection over IPC (from VS Code) or stdio (`bayes lsp --stdio`).
 * On every change it parses and checks the document and publishes diagnostics.
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  DiagnosticSeverity,
  type Connection,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import { checkText } from './run/pipeline.js';
import { nodeEnvironment } from './run/nodeEnvironment.js';
import type { Diagnostic } from './language/diagnostics.js';

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return { severity: SEVERITY[d.severity], message: d.message, range: d.range, code: d.code, source: 'bayes', data: d.data };
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let workspaceRoots: string[] = [];

  connection.onInitialize((params) => {
    workspaceRoots = (params.workspaceFolders ?? [])
      .filter((f) => f.uri.startsWith('file:'))
      .map((f) => fileURLToPath(f.uri));
    return { capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental } };
  });

  const validate = (doc: TextDocument) => {
    const path = doc.uri.startsWith('file:') ? fileURLToPath(doc.uri) : undefined;
    const root = path ? workspaceRoots.find((r) => path.startsWith(r)) : undefined;
    const env = nodeEnvironment({ documentPath: path, workspaceRoot: root });
    const { diagnostics } = checkText(doc.getText(), env);
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: diagnostics.map(toLspDiagnostic) });
  };

  documents.onDidChangeContent((e) => validate(e.document));
  documents.onDidClose((e) => void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }));
  documents.listen(connection);
  connection.listen();
}

// Started as its own bundle by VS Code (IPC); `bayes lsp --stdio` calls startServer itself. Inside the
// CLI bundle `require.main === module` holds too, so key on the bundle's file name.
if (typeof require !== 'undefined' && require.main?.filename.endsWith('server.cjs')) {
  startServer(createConnection(ProposedFeatures.all));
}
