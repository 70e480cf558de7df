/**
 * Registers every LSP feature on the connection. Each feature is a pure function of the
 * document's parse (and its last run) in its own file; this file only wires requests to them.
 */
import type { Connection, ServerCapabilities } from 'vscode-languageserver/node';
import { CodeActionKind, LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { hover } from './hover.js';
import { inlayHints } from './inlayHints.js';
import { codeLenses } from './codeLens.js';
import { completion } from './completion.js';
import { signatureHelp } from './signatureHelp.js';
import { definition, references } from './navigation.js';
import { prepareRename, rename } from './rename.js';
import { documentSymbols } from './documentSymbols.js';
import { foldingRanges } from './folding.js';
import { formatting, rangeFormatting } from './formatting.js';
import { documentHighlights } from './documentHighlight.js';
import { workspaceSymbols } from './workspaceSymbols.js';
import { documentLinks } from './documentLinks.js';
import { legend, semanticTokens, semanticTokensInto } from './semanticTokens.js';
import { SemanticTokensHistory } from './semanticTokensDelta.js';
import { codeActions } from './codeActions.js';
import { Method } from '../protocol/methods.js';
import { setPrecision } from './resultView.js';
import { exportBif, networkSummaries } from './networkRequests.js';
import { expectItems } from './expectItems.js';
import { MarginalsService } from './marginalsRequest.js';
import { decisionsRequest } from './decisionsRequest.js';
import { diagnosisRequest } from './diagnosisRequest.js';
import type { FeatureHost } from './featureHost.js';
import type { ParsedDocument } from '../workspace/documents.js';

export type { FeatureHost } from './featureHost.js';
import type { DecisionsParams, DiagnosisParams, MarginalsParams } from '../protocol/messages.js';

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
  documentRangeFormattingProvider: true,
  documentHighlightProvider: true,
  workspaceSymbolProvider: true,
  documentLinkProvider: { resolveProvider: false },
  semanticTokensProvider: { legend, full: { delta: true }, range: true },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
};

/** A parse slower than this is not done for a request whose document may already be out of date. */
const COSTLY_PARSE_MS = 30;
/** How long such a request waits for newer edits already on their way (they are read meanwhile). */
const STALE_WAIT_MS = 15;

export function registerFeatures(connection: Connection, session: FeatureHost): void {
  const parsed = (uri: string) => session.parse(uri);
  const run = (uri: string) => session.currentRun(uri)?.result;
  /**
   * Stale work is dropped: when answering would first need a costly parse (a big model being
   * typed into), the request waits a moment, and if a newer edit came meanwhile it is answered
   * with ContentModified (the editor asks again) instead of parsing a version already gone.
   */
  const current = <T>(uri: string, answer: () => T): T | Promise<T> => {
    const version = session.documents.get(uri)?.version;
    if (!session.costlyToParse(uri, COSTLY_PARSE_MS)) return answer();
    return new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        if (session.documents.get(uri)?.version !== version)
          reject(new ResponseError(LSPErrorCodes.ContentModified, 'the document changed'));
        else {
          try {
            resolve(answer());
          } catch (e) {
            reject(e);
          }
        }
      }, STALE_WAIT_MS),
    );
  };
  /** `use` of the open document's parse, or `none` when the document is not open. */
  const withParse = <T>(uri: string, none: T, use: (d: ParsedDocument) => T): T | Promise<T> =>
    current(uri, () => {
      const d = parsed(uri);
      return d ? use(d) : none;
    });

  // Numbers are shown at the document's `bayes.precision` (read before the synchronous answer is built).
  const digits = async (uri: string) => setPrecision((await session.precision?.(uri).catch(() => 4)) ?? 4);
  connection.onHover(async (p) => {
    await digits(p.textDocument.uri);
    return withParse(p.textDocument.uri, null, (d) => hover(d.parse.ast, p.position, run(p.textDocument.uri)));
  });
  connection.languages.inlayHint.on(async (p) => {
    await digits(p.textDocument.uri);
    const uri = p.textDocument.uri;
    return withParse(uri, [], (d) => inlayHints(d.text, run(uri), p.range, d.state.starts));
  });
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
  connection.onDocumentHighlight((p) =>
    withParse(p.textDocument.uri, [], (d) => documentHighlights(d.parse.ast, p.position)),
  );
  connection.onWorkspaceSymbol((p) =>
    workspaceSymbols(
      session.documents.all().flatMap((doc) => {
        const d = parsed(doc.uri);
        return d ? [{ uri: doc.uri, symbols: documentSymbols(d.parse.ast, d.text, d.state.starts) }] : [];
      }),
      p.query,
    ),
  );
  connection.onDocumentLinks((p) =>
    withParse(p.textDocument.uri, [], (d) => documentLinks(d.parse.ast, session.pathOf(p.textDocument.uri))),
  );
  connection.onDocumentRangeFormatting((p) => {
    const d = parsed(p.textDocument.uri);
    return d ? (rangeFormatting(d.parse, d.text, p.range) ?? []) : [];
  });
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
  connection.languages.semanticTokens.on((p) =>
    current(p.textDocument.uri, () => sentTokens.full(p.textDocument.uri, allTokens(p.textDocument.uri))),
  );
  connection.languages.semanticTokens.onDelta((p) =>
    current(p.textDocument.uri, () => {
      const uri = p.textDocument.uri;
      const d = parsed(uri);
      const encode = (reuse?: Int32Array) =>
        d ? semanticTokensInto(d.parse.ast, d.text, d.state.starts, reuse) : new Int32Array(0);
      return sentTokens.delta(uri, p.previousResultId, encode, () => allTokens(uri));
    }),
  );
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
  connection.onRequest(Method.expects, (p: { uri: string }) => {
    const d = parsed(p.uri);
    return d ? expectItems(d.parse.ast, d.text) : [];
  });
  type Exported = { text: string } | { error: string };
  type ExportParams = { uri: string; network: string; format?: string };
  connection.onRequest<Exported, unknown>(Method.exportBif, async (p: ExportParams): Promise<Exported> => {
    const d = parsed(p.uri);
    if (!d) return { error: 'the document is not open' };
    return session.withFiles(p.uri, (env) => exportBif(d.parse.ast, env, p.network, p.format));
  });

  const marginals = new MarginalsService(session);
  connection.onRequest(Method.marginals, (p: MarginalsParams) => marginals.marginals(p));
  session.documents.onDidClose((e) => marginals.close(e.document.uri));
  connection.onRequest(Method.decisions, (p: DecisionsParams) => decisionsRequest(session, marginals, p));
  connection.onRequest(Method.diagnosis, (p: DiagnosisParams) => diagnosisRequest(marginals, p));

  // Results change what hover, inlay hints and code lens show: ask the client to refresh.
  session.runListeners.push(() => {
    void connection.languages.inlayHint.refresh().catch(() => undefined);
    void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  });
}
