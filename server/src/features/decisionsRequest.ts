/**
 * `bayes/decisions`: an influence diagram under the results panel's evidence — each free
 * decision's EU per alternative (the other decisions optimal, as `query eu` computes them), the
 * best alternatives, the MEU, every variable's marginal and each utility node's expected value
 * under the optimal strategy, and the value of information before the first free decision
 * (run/panelQueries.ts). The diagram's decisions and utilities are read from the document here
 * (cheap); the solving runs in the document's worker (features/marginalsRequest.ts), held to the
 * run's time and memory limits, so a large diagram never blocks the server.
 */
import type * as A from '../language/index.js';
import type { DecisionsParams, DecisionsReply } from '../protocol/messages.js';
import { CompileError } from '../model/compileError.js';
import { compileDiagram } from '../run/decisionDiagram.js';
import { networkNamed } from './networkRequests.js';
import type { FeatureHost } from './featureHost.js';
import type { MarginalsService } from './marginalsRequest.js';

export async function decisionsRequest(
  host: FeatureHost,
  service: MarginalsService,
  p: DecisionsParams,
): Promise<DecisionsReply> {
  if (typeof p?.uri !== 'string' || typeof p.network !== 'string')
    return { error: 'bayes/decisions wants { uri, network, evidence }' };
  const d = host.parse(p.uri);
  if (!d) return { error: 'the document is not open' };
  const compiled = await host.withFiles(p.uri, (env) => networkNamed(d.parse.ast, env, p.network));
  if ('error' in compiled) return compiled;
  let id;
  try {
    id = compileDiagram(compiled.network, scopeStatements(d.parse.ast, p.network), `'${p.network}'`);
  } catch (e) {
    if (e instanceof CompileError) return { error: e.message };
    throw e;
  }
  if (id.decisions.length === 0) return { error: `'${p.network}' has no decision` };
  const evidence = p.evidence ?? {};
  return service.ask(p.uri, p.network, {
    kind: 'decisions',
    decisions: id.decisions,
    utilities: id.utilities,
    evidence,
  }) as Promise<DecisionsReply>;
}

/** The statements of the scope that declares the diagram: the file's top level, or a `network { … }`. */
function scopeStatements(file: A.BayesFile, network: string): readonly A.Statement[] {
  const decl = file.statements.find((s): s is A.NetworkDecl => s.kind === 'network' && s.name.text === network);
  return decl ? decl.statements : file.statements;
}
