/**
 * The language server: a connection over IPC (from VS Code) or stdio (`bayes lsp --stdio`).
 * `session.ts` owns the document lifecycle (check on change, run on save); each LSP
 * feature registers itself from `features/`.
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocumentSyncKind,
  DidChangeConfigurationNotification,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Session } from './session.js';
import { registerFeatures, featureCapabilities } from './features/index.js';
import { Method, RUN_COMMAND } from './protocol/methods.js';
import type { InitializationOptions } from './protocol/messages.js';
import { isFileUri } from './workspace/environment.js';

export { toLspDiagnostic } from './session.js';

export { RUN_COMMAND };

export function startServer(connection: Connection, options: { workerPath?: string } = {}): Session {
  const session = new Session(connection, options.workerPath);
  // Whatever a feature gets wrong, the server keeps serving the other requests and documents.
  process.on('unhandledRejection', (e) =>
    connection.console.error(`unhandled: ${e instanceof Error ? e.stack : String(e)}`),
  );

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    session.workspaceRoots = (
      params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : [])
    )
      .filter((f) => isFileUri(f.uri))
      .map((f) => fileURLToPath(f.uri));
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    session.trusted = init.trusted === true; // opt in: restricted unless the client says trusted
    session.capabilities = {
      configuration: params.capabilities.workspace?.configuration === true,
      progress: params.capabilities.window?.workDoneProgress === true,
      workspaceFolders: params.capabilities.workspace?.workspaceFolders === true,
    };
    return {
      capabilities: {
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        executeCommandProvider: { commands: [RUN_COMMAND] },
        ...featureCapabilities,
      },
      serverInfo: { name: 'bayes' },
    };
  });

  connection.onInitialized(() => {
    if (session.capabilities.configuration) {
      void connection.client
        .register(DidChangeConfigurationNotification.type, { section: 'bayes' })
        .catch(() => undefined);
    }
    if (session.capabilities.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((f) => f.uri));
        const added = event.added.filter((f) => isFileUri(f.uri)).map((f) => fileURLToPath(f.uri));
        session.workspaceRoots = [
          ...session.workspaceRoots.filter((r) => !removed.has(pathToFileURL(r).toString())),
          ...added,
        ];
        session.recheckAll();
      });
    }
  });
  connection.onDidChangeConfiguration(() => session.recheckAll());
  connection.onNotification(Method.trust, (p: { trusted: boolean }) => {
    session.trusted = p.trusted;
    session.recheckAll();
  });
  connection.onDidChangeWatchedFiles((p) => {
    for (const change of p.changes) {
      const path = session.pathOf(change.uri);
      if (path) {
        session.runs.cache.fileChanged(path);
        session.fileChanged(path);
      }
    }
    session.recheckAll();
  });
  connection.onExecuteCommand(async (p) => {
    const uri = p.arguments?.[0];
    // Arguments `[uri, { fresh?, reportReuse? }]`: a fresh run skips the cache; with reportReuse
    // a cached answer says 'reused'.
    const o = (p.arguments?.[1] ?? {}) as { fresh?: unknown; reportReuse?: unknown };
    const options = { fresh: o.fresh === true, reportReuse: o.reportReuse === true };
    if (p.command === RUN_COMMAND && typeof uri === 'string') return session.run(uri, options);
    return undefined;
  });
  connection.onRequest(Method.lastResult, (p: { uri: string }) => {
    const record = session.lastRun(p.uri);
    return record
      ? {
          state: record.state,
          cached: record.cached,
          result: record.result,
          current: session.currentRun(p.uri) === record,
        }
      : null;
  });
  connection.onShutdown(() => session.runs.dispose());

  registerFeatures(connection, session);
  session.documents.listen(connection);
  connection.listen();
  return session;
}

// Started as its own bundle by VS Code (IPC); `bayes lsp --stdio` calls startServer itself. Inside the
// CLI bundle `require.main === module` holds too, so key on the bundle's file name.
if (typeof require !== 'undefined' && require.main?.filename.endsWith('server.cjs')) {
  startServer(createConnection(ProposedFeatures.all));
}
