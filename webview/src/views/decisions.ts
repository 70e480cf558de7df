/** Influence diagrams and interventions: decision rules, expected utilities, EVPI, causal effects. */
import type {
  CausalEffectResult,
  DecisionRuleJson,
  ExpectedUtilityResult,
  PolicyResult,
  ValueOfInformationResult,
} from '../../../server/src/protocol/runResult.js';
import { h } from '../dom.js';
import { dataTable } from '../table.js';

const evidenceText = (e: Record<string, string>) =>
  Object.entries(e)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ') || 'none';

export function policyView(e: PolicyResult): HTMLElement[] {
  return [
    h(
      'p',
      {},
      `${e.network} · evidence: ${evidenceText(e.evidence)} · maximum expected utility `,
      h('span', { class: 'num', 'data-value': String(e.meu) }, String(Number(e.meu.toPrecision(8)))),
    ),
    ...e.rules.flatMap(ruleView),
  ];
}

type Row = DecisionRuleJson['rows'][number];

function ruleView(rule: DecisionRuleJson): HTMLElement[] {
  // Contexts that cannot happen carry no choice worth reading.
  const rows = rule.rows.filter((r) => r.probability === undefined || r.probability > 0);
  const knows = rule.context.length ? ` knowing ${rule.context.join(', ')}` : '';
  return [
    h('h4', {}, `${rule.decision}${knows}`),
    dataTable(
      `rule of ${rule.decision}`,
      [
        ...rule.context.map((c) => ({ title: c, value: (r: Row) => r.given[c] })),
        ...rule.alternatives.map((a) => ({ title: `EU(${a})`, value: (r: Row) => r.expectedUtility?.[a] })),
        { title: 'P(context)', value: (r: Row) => r.probability },
        { title: 'best', value: (r: Row) => r.choice, className: () => 'pass' },
      ],
      rows,
    ),
    ...(rule.truncated ? [h('p', {}, `… ${rule.truncated} more contexts (bayes run --json has them)`)] : []),
  ];
}

export function expectedUtilityView(e: ExpectedUtilityResult): HTMLElement[] {
  const rows = Object.entries(e.expectedUtility).sort((a, b) => b[1] - a[1]);
  return [
    h('p', {}, `${e.network} · ${e.decision} · evidence: ${evidenceText(e.evidence)} · best: ${e.best.join(', ')}`),
    dataTable(
      `expected utility of ${e.decision}`,
      [
        { title: 'alternative', value: (r: [string, number]) => r[0] },
        { title: 'expected utility', value: (r: [string, number]) => r[1] },
      ],
      rows,
    ),
  ];
}

export function voiView(e: ValueOfInformationResult): HTMLElement[] {
  return [
    dataTable(
      `value of information about ${e.variable}`,
      [
        { title: 'quantity', value: (r: [string, number]) => r[0] },
        { title: 'value', value: (r: [string, number]) => r[1] },
      ],
      [
        [`MEU, ${e.decision} as declared`, e.meu],
        [`MEU, ${e.variable} known at ${e.decision}`, e.meuInformed],
        ['EVPI', e.voi],
      ],
    ),
  ];
}

export function effectView(e: CausalEffectResult): HTMLElement[] {
  const rows = Object.entries(e.interventional).flatMap(([x, d]) =>
    Object.entries(d).map(([y, p]) => ({ x, y, p, seen: e.observational[x]?.[y] })),
  );
  return [
    h(
      'p',
      {},
      `${e.network} · evidence: ${evidenceText(e.evidence)}` +
        (e.averageCausalEffect !== undefined
          ? ` · average causal effect ${Number(e.averageCausalEffect.toPrecision(6))}`
          : ''),
    ),
    dataTable(
      `effect of ${e.cause} on ${e.effect}`,
      [
        { title: e.cause, value: (r) => r.x },
        { title: e.effect, value: (r) => r.y },
        { title: `P(${e.effect} | do(${e.cause}))`, value: (r) => r.p },
        { title: `P(${e.effect} | ${e.cause})`, value: (r) => r.seen },
      ],
      rows,
    ),
  ];
}
