/**
 * `bayes/decisions`: an influence diagram's expected utilities for the results panel, under the
 * evidence set there — each free decision's EU per alternative (the other decisions optimal, as
 * `query eu` computes them), the best alternatives, and the MEU. The diagram is compiled from the
 * document as written (engine/decisions/influenceDiagram.ts solves it, within its budget); a
 * diagram the panel can click is small, so it is answered here rather than in the marginals worker.
 */
import type * as A from '../language/index.js';
import type { DecisionsParams, DecisionsReply } from '../protocol/messages.js';
import {
  expectedUtilities,
  solveInfluenceDiagram,
  type InfluenceDiagram,
} from '../engine/decisions/influenceDiagram.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from '../model/compileError.js';
import { compileDiagram } from '../run/decisionDiagram.js';
import { networkNamed } from './networkRequests.js';
import type { FeatureHost } from './featureHost.js';

export async function decisionsRequest(host: FeatureHost, p: DecisionsParams): Promise<DecisionsReply> {
  if (typeof p?.uri !== 'string' || typeof p.network !== 'string')
    return { error: 'bayes/decisions wants { uri, network, evidence }' };
  const d = host.parse(p.uri);
  if (!d) return { error: 'the document is not open' };
  const compiled = await host.withFiles(p.uri, (env) => networkNamed(d.parse.ast, env, p.network));
  if ('error' in compiled) return compiled;
  const t0 = performance.now();
  try {
    const id = compileDiagram(compiled.network, scopeStatements(d.parse.ast, p.network), `'${p.network}'`);
    if (id.decisions.length === 0) return { error: `'${p.network}' has no decision` };
    const evidence = evidenceOf(id, p.evidence ?? {});
    const meu = solveInfluenceDiagram(id, evidence, { detailLimit: 0 }).meu;
    const decisions = id.decisions
      .filter((dec) => !evidence.has(dec.variable))
      .map((dec) => {
        const v = id.network.variables[dec.variable]!;
        const eu = [...expectedUtilities(id, dec.variable, evidence)];
        const top = Math.max(...eu);
        // Ties within rounding are all best (as `query eu` reports them).
        const best = v.states.filter((_, i) => Math.abs(eu[i]! - top) <= 1e-9 * Math.max(1, Math.abs(top)));
        return { name: v.name, alternatives: [...v.states], expectedUtility: eu, best };
      });
    return { network: p.network, meu, decisions, elapsed: performance.now() - t0 };
  } catch (e) {
    if (e instanceof EngineError || e instanceof CompileError) return { error: e.message };
    throw e;
  }
}

/** The statements of the scope that declares the diagram: the file's top level, or a `network { … }`. */
function scopeStatements(file: A.BayesFile, network: string): readonly A.Statement[] {
  const decl = file.statements.find((s): s is A.NetworkDecl => s.kind === 'network' && s.name.text === network);
  return decl ? decl.statements : file.statements;
}

function evidenceOf(id: InfluenceDiagram, named: Record<string, string>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [name, state] of Object.entries(named)) {
    const v = id.network.variables.findIndex((x) => x.name === name);
    if (v < 0) throw new EngineError(`'${name}' is not a variable of '${id.name}'`);
    const s = id.network.variables[v]!.states.indexOf(state);
    if (s < 0) throw new EngineError(`'${state}' is not a state of '${name}'`);
    out.set(v, s);
  }
  return out;
}
