/**
 * Reading a network file for the network commands: BIF, XMLBIF, Hugin NET, UAI or GeNIe XDSL (by
 * extension, model/networkFormats.ts), or a `.bayes` model — its default model,
 * `--network NAME`, or the file's only network when it has no top-level tables (what
 * `bayes convert X.bif X.bayes` writes).
 */
import { extname } from 'node:path';
import { compileNetwork, CompileError } from '../model/compileNetwork.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { compileHybridNetwork } from '../model/compileHybridNetwork.js';
import { declaredPrior } from '../run/tablePriors.js';
import type * as A from '../language/ast.js';
import { checkText } from '../run/pipeline.js';
import type { CliIO } from './command.js';
import { formatDiagnostic, readModel } from './check.js';
import { environmentFor } from './workspace.js';
import { fileName, readFormatNetwork, type NetworkFileOptions, type NetworkModel } from './networkFormatFile.js';

export { NETWORK_FILE_USAGE, type NetworkFileOptions, type NetworkModel } from './networkFormatFile.js';

export function readNetworkFile(
  file: string,
  io: CliIO,
  options: NetworkFileOptions = {},
): BayesianNetwork | undefined {
  return readNetworkModel(file, io, options)?.net;
}

export function readNetworkModel(file: string, io: CliIO, options: NetworkFileOptions = {}): NetworkModel | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.bayes') return readBayesNetwork(file, io, options);
  return readFormatNetwork(file, io, options);
}

function readBayesNetwork(file: string, io: CliIO, options: NetworkFileOptions): NetworkModel | undefined {
  const checked = checkedScope(file, io, options);
  if (!checked) return undefined;
  const { ast, symbols, env, scope } = checked;
  return compiled(file, io, () => {
    const net = compileNetwork(ast, symbols, env, scope, { unknownTables: options.learning });
    if (scope === undefined) net.name = fileName(file);
    return { net, prior: declaredPrior(ast, symbols, scope, net) };
  });
}

/**
 * The hybrid network of a `.bayes` model that declares continuous variables (`~ Normal(…)`
 * tables); undefined when it has none (the discrete reader takes it), null after an error.
 */
export function readBayesHybrid(
  file: string,
  io: CliIO,
  options: NetworkFileOptions,
): HybridNetwork | undefined | null {
  const checked = checkedScope(file, io, options);
  if (!checked) return null;
  const { ast, symbols, env, scope } = checked;
  const net = compiled(file, io, () => compileHybridNetwork(ast, symbols, env, scope) ?? null);
  if (net === undefined) return null;
  if (net && scope === undefined) net.name = fileName(file);
  return net ?? undefined;
}

/** A `.bayes` file checked clean, and the scope to read: errors are printed, then undefined. */
function checkedScope(file: string, io: CliIO, options: NetworkFileOptions) {
  const text = readModel(file, io, options['max-file-mb']);
  if (text === undefined) return undefined;
  const env = environmentFor(file, options, io);
  const checked = checkText(text, env);
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  for (const d of errors) io.err(formatDiagnostic(file, d) + '\n');
  if (errors.length) return undefined;
  const scope = options.network ?? onlyScope(checked.parse.ast);
  if (scope === null) {
    io.err(
      `bayes: ${file}: the file has no top-level tables and not exactly one network: choose one with --network NAME\n`,
    );
    return undefined;
  }
  return { ast: checked.parse.ast, symbols: checked.symbols, env, scope };
}

/** `compile()`, with a CompileError printed as `file:line:col: error: …` and undefined returned. */
function compiled<T>(file: string, io: CliIO, compile: () => T): T | undefined {
  try {
    return compile();
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    const at = e.range ? `${e.range.start.line + 1}:${e.range.start.character + 1}` : '1:1';
    io.err(`${file}:${at}: error: ${e.message}\n`);
    return undefined;
  }
}

/** undefined = the default model (it has tables); a name = the only network; null = ambiguous. */
function onlyScope(file: A.BayesFile): string | undefined | null {
  if (file.statements.some((s) => s.kind === 'table')) return undefined;
  const networks = file.statements.filter(
    (s): s is A.NetworkDecl | A.ImportDecl => s.kind === 'network' || s.kind === 'import',
  );
  return networks.length === 1 ? networks[0]!.name.text : null;
}
