/**
 * Custom requests behind the client's Show Network Graph and Export Network as BIF commands:
 * `bayes/networks` lists each network's variables, states and parents; `bayes/exportBif` writes
 * one as BIF (an imported network is read from its file, through the document's environment,
 * and written back).
 */
import { basename } from 'node:path';
import type * as A from '../language/index.js';
import { declaredNetwork, importedNetwork } from '../model/compileNetwork.js';
import { networkFormatOf } from '../model/networkFormats.js';
import { UnwritableNetworkError } from '../model/networkText.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { NetworkSummary } from '../protocol/messages.js';
import { check } from '../language/index.js';
import { compileHybridNetwork } from '../model/compileHybridNetwork.js';
import { CompileError } from '../model/compileError.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';

export function networkSummaries(file: A.BayesFile, env: A.CheckEnvironment): NetworkSummary[] {
  const summary = (net: BayesianNetwork, source: NetworkSummary['source']): NetworkSummary => ({
    name: net.name,
    source,
    variables: net.variables.map((v, i) => ({
      name: v.name,
      states: v.states,
      parents: net.cpts[i]!.parents.map((p) => net.variables[p]!.name),
    })),
  });
  const own = networksOf(file, fileStem(env.documentPath)).map((n) => summary(n, 'file'));
  const imported = importedNetworks(file, env).flatMap((i) => ('network' in i ? [summary(i.network, 'import')] : []));
  return [...own, ...imported];
}

/** `format`: the extension of the file to write (.bif by default; .xml, .net, .uai: model/networkFormats.ts). */
export function exportBif(
  file: A.BayesFile,
  env: A.CheckEnvironment,
  name: string,
  format = '.bif',
): { text: string } | { error: string } {
  const write = networkFormatOf(`network${format}`)?.write;
  if (!write) return { error: `networks are not written as '${format}'` };
  const written = (net: BayesianNetwork) => {
    try {
      return { text: write(net) };
    } catch (e) {
      if (e instanceof UnwritableNetworkError) return { error: e.message };
      throw e;
    }
  };
  const own = networksOf(file, fileStem(env.documentPath)).find((n) => n.name === name);
  if (own) return written(own);
  const imported = importedNetworks(file, env).find((i) => i.name === name);
  if (!imported) return { error: `there is no network '${name}' in this file` };
  return 'network' in imported ? written(imported.network) : { error: imported.error };
}

/** The networks a file declares: each `network` block, and the top level when it has variables. */
function networksOf(file: A.BayesFile, fileName: string): BayesianNetwork[] {
  const nets = file.statements
    .filter((s): s is A.NetworkDecl => s.kind === 'network')
    .map((n) => declaredNetwork(n.name.text, n.statements));
  const top = declaredNetwork(fileName, file.statements);
  return top.variables.length > 0 ? [top, ...nets] : nets;
}

function fileStem(path: string | undefined): string {
  return path ? basename(path).replace(/\.bayes$/, '') : 'model';
}

type Imported = { name: string } & ({ network: BayesianNetwork } | { error: string });

/** `import network N from "x.bif"`: read only where the environment may read files (a trusted workspace). */
function importedNetworks(file: A.BayesFile, env: A.CheckEnvironment): Imported[] {
  const imports = file.statements.filter((s): s is A.ImportDecl => s.kind === 'import');
  return imports.map((s): Imported => {
    if (!env.readText || !env.documentPath)
      return { name: s.name.text, error: 'imported networks are read only in a trusted workspace with a saved model' };
    try {
      return { name: s.name.text, network: importedNetwork(s, env) };
    } catch (e) {
      return { name: s.name.text, error: (e as Error).message };
    }
  });
}

/**
 * The network a run's `network` entry names (`default`: the file's default model), compiled from
 * the document as written, or why it cannot be (an import that cannot be read, a network `learn` makes).
 */
export function networkNamed(
  file: A.BayesFile,
  env: A.CheckEnvironment,
  name: string,
): { network: BayesianNetwork } | { error: string } {
  const own = networksOf(file, fileStem(env.documentPath));
  const top =
    own[0] && !file.statements.some((s) => s.kind === 'network' && s.name.text === own[0]!.name) ? own[0] : undefined;
  const found = name === 'default' ? top : own.find((n) => n !== top && n.name === name);
  if (found) return { network: found };
  const imported = importedNetworks(file, env).find((i) => i.name === name);
  if (!imported) {
    return { error: `there is no network '${name}' in this file as written (a learnt network is not interactive)` };
  }
  return 'network' in imported ? { network: imported.network } : { error: imported.error };
}

/**
 * The network a run's `network` entry names when it has continuous variables (a `network { … }`
 * or the default model with `~ Normal(…)` tables, an imported Hugin NET file with continuous
 * nodes), compiled to the hybrid IR; undefined when it
 * has none (networkNamed answers), or why it cannot be compiled.
 */
export function hybridNetworkNamed(
  file: A.BayesFile,
  env: A.CheckEnvironment,
  name: string,
): { network: HybridNetwork } | { error: string } | undefined {
  const scope = name === 'default' ? undefined : name;
  const declares = (s: A.Statement) => (s.kind === 'network' || s.kind === 'import') && s.name.text === scope;
  if (scope !== undefined && !file.statements.some(declares)) return undefined;
  const { symbols } = check(file, env);
  try {
    return mapped(compileHybridNetwork(file, symbols, env, scope));
  } catch (e) {
    if (e instanceof CompileError) return { error: e.message };
    throw e;
  }
}

function mapped(net: HybridNetwork | undefined): { network: HybridNetwork } | undefined {
  return net ? { network: net } : undefined;
}
