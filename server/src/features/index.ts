/**
 * Registers every LSP feature on the connection. Each feature is a pure function of the
 * document's parse (and its last run) in its own file; this file only wires requests to them.
 */
import type { Connection, ServerCapabilities } from 'vscode-languageserver/node';
import { CodeActionKind } from 'vscode-languageserver/node';
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CheckEnvironment } from '../language/index.js';
import type { Files } from '../language/environment.js';
import type { ParsedDocument } from '../workspace/documents.js';
import type { RunRecord } from '../protocol/messages.js';
import { hover } from './hover.js';
import { inlayHints } from './inlayHints.js';
import { codeLenses } from './codeLens.js';
import { completion } from './completion.js';
import { signatureHelp } from './signatureHelp.js';
import { definition, references } from './navigation.js';
import { prepareRename, rename } from './rename.js';
import { documentSymbols } from './documentSymbols.js';
import { foldingRanges } from './folding.js';
import { formatting } from './formatting.js';
import { legend, semanticTokens, semanticTokensInto } from './semanticTokens.js';
import { SemanticTokensHistory } from './semanticTokensDelta.js';
import { codeActions } from './codeActions.js';
import { Method } from '../protocol/methods.js';
import { exportBif, networkSummaries } from './networkRequests.js';

export const featureCapabilities: ServerCapabilities = {
  hoverProvider: true,
  inlayHintProvider: true,
  codeLensProvider: { resolveProvider: false },
  completionProvider: { triggerCharacters: ['(', '|', ',', '=', ' ', '{', ':'] },
  signatureHelpProvider: { triggerCharacters: ['(', '{', ','], retriggerCharacters: [','] },
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  documentSymbolProvider: true,
  foldingRangeProvider: true,
  documentFormattingProvider: true,
  semanticTokensProvider: { legend, full: { delta: true }, range: true },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
};

/** What the features read of the server: documents, their parse and last run, trust and files. */
export interface FeatureHost {
  readonly documents: TextDocuments<TextDocument>;
  readonly trusted: boolean;
  readonly runListeners: ((record: RunRecord) => void)[];
  parse(uri: string): ParsedDocument | undefined;
  /** The last run if the document still reads as it did. */
  currentRun(uri: string): RunRecord | undefined;
  lastRun(uri: string): RunRecord | undefined;
  /** `use` with the document's environment, its file answers read asynchronously. */
  withFiles<T>(uri: string, use: (env: CheckEnvironment) => T): Promise<T>;
  /** Confined asynchronous file access for the document's model (content only read when trusted). */
  files(uri: string): Promise<Files>;
  pathOf(uri: string): string | undefined;
}

export function registerFeatures(connection: Connection, session: FeatureHost): void {
  const parsed = (uri: string) => session.parse(uri);
  const run = (uri: string) => session.currentRun(uri)?.result;
  /** `use` of the open document's parse, or `none` when the document is not open. */
  const withParse = <T>(uri: string, none: T, use: (d: ParsedDocument) => T): T => {
    const d = parsed(uri);
    return d ? use(d) : none;
  };

  connection.onHover((p) =>
    withParse(p.textDocument.uri, null, (d) => hover(d.parse.ast, p.position, run(p.textDocument.uri))),
  );
  connection.languages.inlayHint.on((p) =>
    withParse(p.textDocument.uri, [], (d) => inlayHints(d.text, run(p.textDocument.uri), p.range, d.state.starts)),
  );
  connection.onCodeLens((p) =>
    withParse(p.textDocument.uri, [], (d) =>
      codeLenses(d.parse.ast, p.textDocument.uri, session.lastRun(p.textDocument.uri)),
    ),
  );
  connection.onCompletion((p) => withParse(p.textDocument.uri, [], (d) => completion(d.parse.ast, d.text, p.position)));
  connection.onSignatureHelp((p) => withParse(p.textDocument.uri, null, (d) => signatureHelp(d.text, p.position)));
  connection.onDefinition((p) =>
    withParse(p.textDocument.uri, null, (d) => definition(d.parse.ast, p.textDocument.uri, p.position) ?? null),
  );
  connection.onReferences((p) =>
    withParse(p.textDocument.uri, [], (d) =>
      references(d.parse.ast, p.textDocument.uri, p.position, p.context.includeDeclaration),
    ),
  );
  connection.onPrepareRename((p) => withParse(p.textDocument.uri, null, (d) => prepareRename(d.parse.ast, p.position)));
  connection.onRenameRequest((p) =>
    withParse(p.textDocument.uri, null, (d) => rename(d.parse.ast, p.textDocument.uri, p.position, p.newName)),
  );
  connection.onDocumentSymbol((p) =>
    withParse(p.textDocument.uri, [], (d) => documentSymbols(d.parse.ast, d.text, d.state.starts)),
  );
  connection.onFoldingRanges((p) => withParse(p.textDocument.uri, [], (d) => foldingRanges(d.parse.ast, d.text)));
  connection.onDocumentFormatting((p) => {
    const d = parsed(p.textDocument.uri);
    if (!d) return [];
    const edits = formatting(d.parse, d.text);
    if (!edits) connection.console.info(`not formatting ${p.textDocument.uri}: it has syntax errors`);
    return edits ?? [];
  });
  const sentTokens = new SemanticTokensHistory();
  session.documents.onDidClose((e) => sentTokens.forget(e.document.uri));
  const allTokens = (uri: string) => {
    const d = parsed(uri);
    return d ? semanticTokens(d.parse.ast, d.text, undefined, d.state.starts) : { data: [] };
  };
  connection.languages.semanticTokens.on((p) => sentTokens.full(p.textDocument.uri, allTokens(p.textDocument.uri)));
  connection.languages.semanticTokens.onDelta((p) => {
    const uri = p.textDocument.uri;
    const d = parsed(uri);
    const encode = (reuse?: Int32Array) =>
      d ? semanticTokensInto(d.parse.ast, d.text, d.state.starts, reuse) : new Int32Array(0);
    return sentTokens.delta(uri, p.previousResultId, encode, () => allTokens(uri));
  });
  // VS Code asks for the visible lines first: on a big model that is far less to encode and send.
  connection.languages.semanticTokens.onRange((p) =>
    withParse(p.textDocument.uri, { data: [] }, (d) => semanticTokens(d.parse.ast, d.text, p.range, d.state.starts)),
  );
  connection.onCodeAction(async (p) => {
    const d = parsed(p.textDocument.uri);
    if (!d) return [];
    const files = await session.files(p.textDocument.uri);
    return codeActions(d, p, { trusted: session.trusted, documentPath: session.pathOf(p.textDocument.uri), files });
  });

  connection.onRequest(Method.networks, async (p: { uri: string }) => {
    const d = parsed(p.uri);
    return d ? session.withFiles(p.uri, (env) => networkSummaries(d.parse.ast, env)) : [];
  });
  type Exported = { text: string } | { error: string };
  type ExportParams = { uri: string; network: string; format?: string };
  connection.onRequest<Exported, unknown>(Method.exportBif, async (p: ExportParams): Promise<Exported> => {
    const d = parsed(p.uri);
    if (!d) return { error: 'the document is not open' };
    return session.withFiles(p.uri, (env) => exportBif(d.parse.ast, env, p.network, p.format));
  });

  // Results change what hover, inlay hints and code lens show: ask the client to refresh.
  session.runListeners.push(() => {
    void connection.languages.inlayHint.refresh().catch(() => undefined);
    void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  });
}
