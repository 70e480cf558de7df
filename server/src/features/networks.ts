/**
 * Custom requests behind the client's Show Network Graph and Export Network as BIF commands:
 * `bayes/networks` lists each network's variables, states and parents; `bayes/exportBif` writes
 * one as BIF (an imported network is read from its file and written back).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type * as A from '../language/index.js';
import { resolvePath } from '../language/paths.js';
import { networksOf } from '../model/networkFromAst.js';
import { readBif, writeBif } from '../model/bif.js';
import type { BayesianNetwork } from '../engine/network.js';

export interface NetworkSummary {
  name: string;
  /** Where it comes from: declared in the file, or imported from a BIF file. */
  source: 'file' | 'import';
  variables: { name: string; states: string[]; parents: string[] }[];
}

export function networkSummaries(file: A.BayesFile, documentPath: string | undefined, trusted: boolean): NetworkSummary[] {
  const summary = (net: BayesianNetwork, source: NetworkSummary['source']): NetworkSummary => ({
    name: net.name, source,
    variables: net.variables.map((v, i) => ({ name: v.name, states: v.states, parents: net.cpts[i].parents.map((p) => net.variables[p].name) })),
  });
  const own = networksOf(file, fileStem(documentPath)).map((n) => summary(n, 'file'));
  const imported = importedNetworks(file, documentPath, trusted).flatMap((i) => ('network' in i ? [summary(i.network, 'import')] : []));
  return [...own, ...imported];
}

export function exportBif(file: A.BayesFile, documentPath: string | undefined, trusted: boolean, name: string): { text: string } | { error: string } {
  const own = networksOf(file, fileStem(documentPath)).find((n) => n.name === name);
  if (own) return { text: writeBif(own) };
  const imported = importedNetworks(file, documentPath, trusted).find((i) => i.name === name);
  if (!imported) return { error: `there is no network '${name}' in this file` };
  return 'network' in imported ? { text: writeBif(imported.network) } : { error: imported.error };
}

function fileStem(path: string | undefined): string {
  return path ? basename(path).replace(/\.bayes$/, '') : 'model';
}

type Imported = { name: string } & ({ network: BayesianNetwork } | { error: string });

/** `import network N from "x.bif"`: read only in a trusted workspace. */
function importedNetworks(file: A.BayesFile, documentPath: string | undefined, trusted: boolean): Imported[] {
  const imports = file.statements.filter((s): s is A.ImportDecl => s.kind === 'import');
  return imports.map((s): Imported => {
    if (!trusted || !documentPath) return { name: s.name.text, error: 'imported networks are read only in a trusted workspace with a saved model' };
    try {
      const read = readBif(readFileSync(resolvePath(dirname(documentPath), s.path.value), 'utf8'));
      return 'network' in read ? { name: s.name.text, network: { ...read.network, name: s.name.text } } : { name: s.name.text, error: read.error.message };
    } catch (e) {
      return { name: s.name.text, error: `cannot read "${s.path.value}": ${(e as Error).message}` };
    }
  });
}
