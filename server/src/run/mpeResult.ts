/**
 * The result of `query mpe`, discrete (handlers/mpe.ts) or on a network with continuous
 * variables (continuousQueries.ts): the assignment of the unobserved variables, its value for
 * `expect mpe … = "…"` (`A = x, B = y` in the network's order), and P(assignment, evidence) — a
 * density where continuous variables take part.
 */
import type { MpeResultEntry, NamedEvidence, NamedFindings } from '../protocol/runResult.js';
import type { HandlerContext, HandlerOutput } from './handlerContext.js';

export interface MpeAnswer {
  network: string;
  evidence: NamedEvidence;
  findings?: NamedFindings;
  /** Variable → its state, or a continuous variable's value at full precision. */
  assignment: Record<string, string>;
  logProbability: number;
  /** A density (continuous variables): the headline says so. */
  density?: boolean;
  /** How the headline shows a value (rounded numbers); the value itself keeps it whole. */
  show?: (value: string) => string;
}

export function mpeOutput(ctx: HandlerContext, answer: MpeAnswer): HandlerOutput {
  const { assignment, logProbability, show = (x: string) => x } = answer;
  const entries = Object.entries(assignment);
  const value = entries.map(([v, x]) => `${v} = ${x}`).join(', ');
  const shown = entries.map(([v, x]) => `${v} = ${show(x)}`).join(', ');
  const probability = Math.exp(logProbability);
  const result: MpeResultEntry = {
    kind: 'mpe',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${shown} · ${answer.density ? 'density ' : ''}${Number(probability.toPrecision(4))}`,
    network: answer.network,
    evidence: answer.evidence,
    assignment,
    probability,
    logProbability,
    ...(answer.findings ? { findings: answer.findings } : {}),
  };
  return { results: [result], diagnostics: [], value };
}
