/**
 * Belief networks: the DAG with each variable's posterior marginal, evidence marked, the CPT on
 * hover. Clicking a state (in the graph or the marginals list) sets it as evidence, clicking it
 * again clears it; every marginal then comes back from the server (`bayes/marginals`). A node's
 * detail view also takes a likelihood vector (virtual evidence).
 */
import type { MarginalsReply } from '../../../server/src/protocol/messages.js';
import type { CptJson, NetworkResult } from '../../../server/src/protocol/runResult.js';
import type { PanelEvidence } from '../../../server/src/protocol/webviewMessages.js';
import { h, svg } from '../dom.js';
import { drawDensity, momentsText, type Mixture } from '../density.js';
import { num, prob } from '../format.js';
import { graphView, updateGraph, type GraphNode } from '../graph.js';
import { post } from '../host.js';
import { dataTable } from '../table.js';
import {
  cachedAnswer,
  emptyEvidence,
  evidenceKey,
  listen,
  panelEvidence,
  requestMarginals,
  setPanelEvidence,
} from '../evidence.js';
import { ownValue, setOwn } from '../../../server/src/protocol/records.js';
import { saveView, viewOf } from '../viewState.js';
import { observeLines } from '../observeLines.js';
import { listenDecisions, requestDecisions } from '../decisions.js';
import { listenDiagnosis, requestDiagnosis } from '../diagnosis.js';
import type { DecisionsReply } from '../../../server/src/protocol/messages.js';

/** Rows of a CPT shown in a tooltip; the rest are counted. */
const TOOLTIP_ROWS = 12;

type Variable = NetworkResult['variables'][number];

/** The evidence the run itself used (the model's `observe` lines). */
export function runEvidence(e: NetworkResult): PanelEvidence {
  const out = emptyEvidence();
  for (const v of e.variables) {
    if (v.evidence !== undefined) setOwn(out.evidence, v.name, v.evidence);
    if (v.finding)
      setOwn(
        v.finding.kind === 'soft' ? out.soft : out.likelihoods,
        v.name,
        v.states.map((s) => ownValue(v.finding!.values, s) ?? 0),
      );
  }
  return out;
}

export function networkView(e: NetworkResult): HTMLElement[] {
  const byName = new Map(e.variables.map((v) => [v.name, v]));
  const base = runEvidence(e);
  let current = panelEvidence(e.network) ?? base;
  const decisions = new Map((e.decisions ?? []).map((d) => [d.name, d]));
  /** A diagram's marginals are those under the optimal strategy (bayes/decisions), never the run's coin flips. */
  const diagram = decisions.size > 0;
  let marginals = new Map(e.variables.map((v) => [v.name, diagram ? [] : v.marginal]));
  let stderr = new Map(e.variables.flatMap((v) => (v.stderr ? [[v.name, v.stderr] as const] : [])));
  /** Continuous variables' posterior densities (the run's, then each answer's). */
  let densities = runDensities(e);
  let method: string = e.method;
  /** The diagram's expected utilities under the panel's evidence (bayes/decisions), once answered. */
  let utilities: DecisionsReply | undefined;
  const euLines = (name: string, alternatives: string[]) => {
    const answer = utilities && !('error' in utilities) ? utilities.decisions.find((d) => d.name === name) : undefined;
    const fixed = ownValue(current.evidence, name);
    return alternatives.map((a, i) => {
      const eu = answer?.expectedUtility[i];
      return {
        key: a,
        text:
          fixed !== undefined ? `${a}${fixed === a ? ' (taken)' : ''}` : `${a}: EU ${eu === undefined ? '…' : num(eu)}`,
        best: answer?.best.includes(a) ?? false,
        ...(eu !== undefined ? { value: eu } : {}),
      };
    });
  };
  /** A utility node's expected value under the optimal strategy; the values add up to the MEU. */
  const valueLine = (name: string) => {
    const x =
      utilities && !('error' in utilities) ? utilities.utilities.find((u) => u.name === name)?.expected : undefined;
    return [
      { key: 'expected', text: `E[U] ${x === undefined ? '…' : num(x)}`, ...(x !== undefined ? { value: x } : {}) },
    ];
  };
  const nodesFor = (): GraphNode[] => [
    ...e.variables.map((v) => ({
      id: v.name,
      // A decision is chosen, not drawn: its "marginal" would only be the uniform placeholder.
      ...(decisions.has(v.name)
        ? { role: 'decision' as const, lines: euLines(v.name, v.states) }
        : v.continuous
          ? { density: { prior: v.continuous.prior, posterior: densities.get(v.name) ?? v.continuous.posterior } }
          : { bars: v.states.map((state, i) => ({ state, p: marginals.get(v.name)?.[i] ?? NaN })) }),
      evidence: ownValue(current.evidence, v.name),
      ...findingOf(current, v.name),
      tooltip: () =>
        decisions.has(v.name)
          ? decisionTip(v.name, v.states, decisions.get(v.name)!.information)
          : v.continuous
            ? regressionTip(v)
            : cptTable(v.name, v.states, v.cpt, TOOLTIP_ROWS),
    })),
    ...(e.utilities ?? []).map((u) => ({
      id: u.name,
      role: 'utility' as const,
      lines: valueLine(u.name),
      tooltip: () => utilityTable(u),
    })),
  ];
  const strengths = new Map((e.arcs ?? []).map((a) => [`${a.from}\u0000${a.to}`, a.strength]));
  const edges = [
    ...e.variables.flatMap((v) => v.parents.map((p) => influenceArc(p, v.name, strengths, byName))),
    ...[...decisions.values()].flatMap((d) =>
      d.information.map((i) => ({ from: i, to: d.name, className: 'information', title: `${d.name} knows ${i}` })),
    ),
    ...(e.utilities ?? []).flatMap((u) => u.parents.map((p) => ({ from: p, to: u.name }))),
  ];
  const interactive = e.variables.every((v) => v.marginal.length === v.states.length);
  const hybrid = e.variables.some((v) => v.continuous);
  const status = h('p', { class: 'evidence-status', role: 'status', 'aria-live': 'polite' });
  const chips = h('div', { class: 'evidence-chips', role: 'group', 'aria-label': `Evidence in force on ${e.network}` });
  const list = h('div', {
    class: 'marginals-list',
    role: 'group',
    'aria-label': `Marginals of ${e.network}: click a state to set it as evidence`,
  });
  const diagramStatus = h('p', { class: 'decision-status', role: 'status', 'aria-live': 'polite' });
  /** Decisions are recomputed for hard evidence only: soft and virtual findings are for P(…) (as in the language). */
  const askDecisions = () => {
    if (!decisions.size || !interactive) return;
    if (Object.keys(current.soft).length + Object.keys(current.likelihoods).length > 0) {
      diagramStatus.textContent = 'Expected utilities: soft and virtual findings are left out (hard evidence only).';
    }
    requestDecisions(e.network, current.evidence);
  };
  listenDecisions(e.network, (reply) => {
    if ('error' in reply && utilities && !('error' in utilities) && diagram) {
      // Evidence the diagram cannot take (it depends on a free decision): back to the last that worked.
      current = lastGood;
      setPanelEvidence(e.network, evidenceKey(current) === evidenceKey(base) ? undefined : current);
    } else if (!('error' in reply)) {
      utilities = reply;
      lastGood = current;
      marginals = new Map(Object.entries(reply.marginals));
      stderr = new Map();
    } else utilities = reply;
    diagramStatus.textContent =
      'error' in reply
        ? `Expected utilities: ${reply.error}.`
        : `MEU ${num(reply.meu)} given the evidence; each decision shows the expected utility of each alternative (later and earlier decisions optimal), ★ the best; chance nodes and utilities are shown under that optimal strategy.`;
    diagramStatus.classList.toggle('warning', 'error' in reply);
    if (diagram) {
      status.textContent =
        'error' in reply
          ? `Cannot use this evidence: ${reply.error}`
          : `Solved in ${reply.elapsed.toFixed(1)} ms: the marginals under the optimal strategy.`;
      status.classList.toggle('warning', 'error' in reply);
    }
    updateGraph(graph, nodesFor(), interactive ? { onState: toggle } : {});
    drawHeader();
    drawChips();
    drawList();
    drawDetail();
    if (!('error' in reply)) drawValueOfInformation(reply);
  });
  const diagnosis = h('section', { class: 'diagnosis', 'aria-label': `Diagnosis in ${e.network}` });
  /** Diagnosis in an influence diagram: what observing each chance variable before the first free decision is worth. */
  const drawValueOfInformation = (reply: Extract<DecisionsReply, { meu: number }>) => {
    if (!reply.voi)
      return void diagnosis.replaceChildren(h('p', {}, 'Every decision is taken: nothing is left to decide.'));
    const rows = reply.voi.ranking.map((r) =>
      h('li', { 'data-variable': r.variable, 'data-value': String(r.value) }, `${r.variable}: ${num(r.value)}`),
    );
    diagnosis.replaceChildren(
      h('strong', {}, `What to observe before deciding ${reply.voi.decision}`),
      h(
        'p',
        { class: 'note' },
        `Expected value of perfect information (as query voi … for ${reply.voi.decision}): the MEU with the variable known when deciding ${reply.voi.decision} minus the MEU ${num(reply.meu)}, in utility units. Variables that depend on the decision cannot be known before it and are left out.`,
      ),
      rows.length ? h('ol', { class: 'ranking voi' }, ...rows) : h('p', {}, 'No chance variable is left to observe.'),
    );
  };
  const conflict = h('p', { class: 'conflict warning', role: 'status', hidden: true });
  /** The ranking for the node in the detail view and the conflict of the hard evidence (bayes/diagnosis). */
  const askDiagnosis = () => {
    // The mutual-information ranking is over discrete variables: not offered with continuous ones.
    if (!interactive || diagram || hybrid || !detailVariable) return;
    requestDiagnosis(e.network, detailVariable, current.evidence);
  };
  listenDiagnosis(e.network, (reply) => {
    const c = 'error' in reply ? undefined : reply.conflict;
    conflict.hidden = !(c !== undefined && c > 0);
    conflict.dataset.value = c === undefined ? '' : String(c);
    conflict.textContent =
      c !== undefined && c > 0
        ? `Data conflict: conf(e) = ln(Π P(eᵢ) / P(e)) = ${num(c)} nats > 0 — the findings are less likely together than apart (a faulty reading, a rare case, or a model that does not fit).`
        : '';
    if ('error' in reply)
      return void diagnosis.replaceChildren(h('p', { class: 'warning' }, `Diagnosis: ${reply.error}`));
    if (!reply.ranking.length)
      return void diagnosis.replaceChildren(
        h('p', {}, `${reply.target} is observed: nothing is left to learn about it.`),
      );
    const soft = Object.keys(current.soft).length + Object.keys(current.likelihoods).length > 0;
    const rows = reply.ranking
      .slice(0, 10)
      .map((r) =>
        h(
          'li',
          { 'data-variable': r.variable, 'data-value': String(r.nats) },
          `${r.variable}: ${num(r.nats)} nats`,
          reply.entropy > 0 ? ` (${((100 * r.nats) / reply.entropy).toFixed(1)}% of H)` : '',
        ),
      );
    diagnosis.replaceChildren(
      h('strong', {}, `What to observe next to learn about ${reply.target}`),
      h(
        'p',
        { class: 'note' },
        `Mutual information I(${reply.target}; X | e): the expected reduction of ${reply.target}'s entropy, H = ${num(reply.entropy)} nats, from observing X (nats; ÷ ln 2 for bits)${soft ? '; hard evidence only' : ''}. The 10 most informative of ${reply.ranking.length}:`,
      ),
      h('ol', { class: 'ranking' }, ...rows),
    );
  });
  const detail = h('section', { class: 'node-detail', 'aria-label': `Node details in ${e.network}` });
  const graphName = `network-${e.network}`;
  const savedDetail = viewOf(graphName)?.detail;
  let detailVariable = savedDetail !== undefined && byName.has(savedDetail) ? savedDetail : e.variables[0]?.name;
  const header = h('p', { class: 'network-summary' });
  const drawHeader = () => {
    const n = countEvidence(current);
    const parts = [
      `${n.hard} observed`,
      ...(n.soft ? [`${n.soft} soft`] : []),
      ...(n.virtual ? [`${n.virtual} virtual`] : []),
    ];
    header.textContent = `${e.variables.length} variables · evidence in force: ${n.hard + n.soft + n.virtual ? parts.join(', ') : 'none'} · ${how({ ...e, method }, hybrid)}`;
  };
  /** The table in the editor, on an explicit action only; the host keeps the focus in the panel. */
  const openTable = (id: string) => {
    const range = byName.get(id)?.declaration ?? e.utilities?.find((u) => u.name === id)?.declaration;
    post({ type: 'reveal', network: e.network, variable: id, ...(range ? { range } : {}) });
  };

  /** A continuous variable's observed value (a decimal number), or undefined to clear it. */
  const setValue = (variable: string, value: string | undefined) => {
    const next = copy(current);
    if (value === undefined) delete next.evidence[variable];
    else setOwn(next.evidence, variable, value);
    change(next);
  };
  const toggle = (variable: string, state: string) => {
    const next = copy(current);
    delete next.likelihoods[variable];
    delete next.soft[variable];
    if (ownValue(next.evidence, variable) === state) delete next.evidence[variable];
    else setOwn(next.evidence, variable, state);
    change(next);
  };
  const change = (next: PanelEvidence) => {
    current = next;
    setPanelEvidence(e.network, evidenceKey(next) === evidenceKey(base) ? undefined : next);
    askDecisions();
    askDiagnosis();
    if (diagram) {
      drawHeader();
      drawChips();
      drawList();
      return void (status.textContent = 'Solving the diagram for the evidence…');
    }
    if (evidenceKey(next) === evidenceKey(base)) return show(runReply(e), next);
    status.textContent = 'Updating the marginals…';
    requestMarginals(e.network, next, e);
  };
  const show = (reply: MarginalsReply, asked: PanelEvidence) => {
    if ('error' in reply) {
      status.textContent = `Cannot use this evidence: ${reply.error}`;
      status.classList.add('warning');
      current = lastGood;
      setPanelEvidence(e.network, evidenceKey(current) === evidenceKey(base) ? undefined : current);
      drawHeader();
      drawChips();
      drawList();
      return;
    }
    status.classList.remove('warning');
    current = asked;
    lastGood = asked;
    marginals = new Map(Object.entries(reply.marginals));
    densities = new Map([...runDensities(e), ...Object.entries(reply.continuous ?? {})]);
    stderr = new Map(Object.entries(reply.stderr ?? {}));
    method = reply.method;
    status.textContent = describe(reply, e.network, hybrid);
    updateGraph(graph, nodesFor(), interactive ? { onState: toggle } : {});
    drawHeader();
    drawChips();
    drawList();
    drawDetail();
  };
  let lastGood = current;

  const graph = graphView(nodesFor(), edges, {
    name: graphName,
    label: `Network ${e.network}`,
    // Enter or a click opens the node's details here; nothing leaves the panel (issue 27).
    onActivate: (id) => {
      detailVariable = id;
      saveView(graphName, { detail: id });
      drawDetail();
      askDiagnosis();
    },
    onOpen: openTable,
    ...(interactive ? { onState: toggle } : {}),
    ...(strengths.size
      ? {
          legend: [
            [
              'arc width: strength of influence — the Jensen–Shannon divergence of the child’s distributions over the parent’s states, other parents at their prior marginals (nats; thinnest 0, thickest ln |parent states|; hover an arc for its number)',
              'strength',
            ],
          ] as Array<[string, string]>,
        }
      : {}),
  });

  const drawChips = () => {
    const items: HTMLElement[] = [];
    const chip = (text: string, variable: string) => {
      const remove = h(
        'button',
        { class: 'chip-remove', 'aria-label': `Remove the evidence ${text}`, title: 'Remove' },
        '×',
      );
      remove.addEventListener('click', () => {
        const next = copy(current);
        delete next.evidence[variable];
        delete next.likelihoods[variable];
        delete next.soft[variable];
        change(next);
      });
      items.push(h('span', { class: 'chip', 'data-variable': variable }, text, remove));
    };
    for (const [v, s] of Object.entries(current.evidence)) chip(`${v} = ${s}`, v);
    const named = (v: string, xs: number[]) =>
      (byName.get(v)?.states ?? []).map((s, i) => `${s} ${prob(xs[i])}`).join(', ');
    for (const [v, xs] of Object.entries(current.likelihoods)) chip(`${v} ~ likelihood (${named(v, xs)})`, v);
    for (const [v, xs] of Object.entries(current.soft)) chip(`${v} ~ soft (${named(v, xs)})`, v);
    if (!items.length) items.push(h('span', { class: 'chip-none' }, 'No evidence'));
    const reset = h(
      'vscode-button',
      {
        secondary: true,
        class: 'evidence-reset',
        'aria-label': `Reset the evidence of ${e.network} to the model's`,
        disabled: evidenceKey(current) === evidenceKey(base),
      },
      'Reset',
    );
    reset.addEventListener('click', () => change(copy(base)));
    const added = addedEvidence(base, current);
    const write = h(
      'vscode-button',
      {
        secondary: true,
        class: 'evidence-write',
        'aria-label': 'Write evidence as observe lines',
        disabled: !hasAny(added),
      },
      'Write evidence as observe lines',
    );
    write.addEventListener('click', () => {
      const written = observeLines(e.network, added, (v) => byName.get(v)?.states ?? []);
      if ('error' in written) {
        status.textContent = `Cannot ${written.error.replace(/^cannot /, '')}.`;
        status.classList.add('warning');
      } else if (written.lines.length) post({ type: 'writeObserve', network: e.network, lines: written.lines });
    });
    chips.replaceChildren(h('strong', {}, 'Evidence: '), ...items, reset, write);
  };

  const drawList = () => {
    list.replaceChildren(
      ...e.variables.map((v) => {
        if (v.continuous) return densityRow(v, densities.get(v.name), ownValue(current.evidence, v.name));
        if (decisions.has(v.name)) return decisionRow(v);
        const states = v.states.map((s, i) => {
          const observed = ownValue(current.evidence, v.name) === s;
          const p = marginals.get(v.name)?.[i];
          const se = stderr.get(v.name)?.[i];
          const b = h(
            'button',
            {
              class: `state-choice${observed ? ' observed' : ''}`,
              'aria-pressed': String(observed),
              'data-variable': v.name,
              'data-state': s,
              // Starts with the words the button shows (WCAG 2.5.3), then says what it does.
              'aria-label': `${s} ${prob(p)}${se !== undefined ? ` ±${prob(se)}` : ''}: ${observed ? 'clear' : 'set'} ${v.name} = ${s}${observed ? '' : ' as evidence'}`,
              disabled: !interactive,
            },
            h('span', { class: 'state-name' }, s),
            ' ',
            h('span', { class: 'num', 'data-value': String(p ?? '') }, prob(p)),
            se !== undefined ? h('span', { class: 'se' }, ` ±${prob(se)}`) : null,
          );
          b.addEventListener('click', () => toggle(v.name, s));
          return b;
        });
        const mark = ownValue(current.likelihoods, v.name)
          ? ' (virtual evidence)'
          : ownValue(current.soft, v.name)
            ? ' (soft evidence)'
            : '';
        return h(
          'div',
          { class: 'marginal-row', 'data-variable': v.name },
          h('span', { class: 'variable' }, v.name + mark),
          ...states,
        );
      }),
    );
  };

  /** A decision in the list: its alternatives with their expected utilities (a click takes one), not probabilities. */
  const decisionRow = (v: Variable): HTMLElement => {
    const lines = euLines(v.name, v.states);
    const taken = ownValue(current.evidence, v.name);
    return h(
      'div',
      { class: 'marginal-row decision', 'data-variable': v.name },
      h('span', { class: 'variable' }, `${v.name} (decision)`),
      ...v.states.map((s, i) => {
        const line = lines[i]!;
        const b = h(
          'button',
          {
            class: `state-choice${taken === s ? ' observed' : ''}${line.best ? ' best' : ''}`,
            'aria-pressed': String(taken === s),
            'data-variable': v.name,
            'data-state': s,
            'aria-label': `${line.text}${line.best ? ', the best' : ''}: ${taken === s ? 'free' : 'take'} ${v.name} = ${s}`,
            disabled: !interactive,
          },
          h('span', { class: 'state-name' }, s),
          ' ',
          h(
            'span',
            { class: 'num eu', ...('value' in line ? { 'data-value': String(line.value) } : {}) },
            taken !== undefined
              ? taken === s
                ? 'taken'
                : ''
              : `EU ${'value' in line ? num(line.value!) : '…'}${line.best ? ' ★' : ''}`,
          ),
        );
        b.addEventListener('click', () => toggle(v.name, s));
        return b;
      }),
    );
  };

  const drawDetail = () => {
    const v = detailVariable ? byName.get(detailVariable) : undefined;
    if (!v || !interactive) return void detail.replaceChildren();
    const select = h(
      'select',
      { 'aria-label': 'Variable' },
      ...e.variables.map((x) => h('option', { value: x.name, selected: x.name === v.name }, x.name)),
    );
    select.addEventListener('change', () => {
      detailVariable = select.value;
      saveView(graphName, { detail: select.value });
      drawDetail();
      askDiagnosis();
    });
    const show = h(
      'vscode-button',
      { secondary: true, class: 'open-table', title: 'Also Ctrl/Cmd+click on the node; the focus stays here' },
      `Show P(${v.name}) in the editor`,
    );
    show.addEventListener('click', () => openTable(v.name));
    if (v.continuous) {
      detail.replaceChildren(
        h('strong', {}, 'Node '),
        select,
        show,
        h(
          'div',
          { class: 'continuous-detail' },
          ...continuousDetail(
            v,
            densities.get(v.name) ?? v.continuous.posterior,
            ownValue(current.evidence, v.name),
            setValue,
          ),
        ),
      );
      return;
    }
    const hard = v.states.map((s) => {
      const b = h(
        'button',
        { class: 'state-choice', 'aria-pressed': String(ownValue(current.evidence, v.name) === s), 'data-state': s },
        s,
      );
      b.addEventListener('click', () => toggle(v.name, s));
      return b;
    });
    detail.replaceChildren(
      h('strong', {}, 'Node '),
      select,
      show,
      h(
        'div',
        { class: 'hard' },
        h('span', {}, decisions.has(v.name) ? 'Alternative taken: ' : 'Observed state: '),
        ...hard,
      ),
      // A decision query takes states as evidence (as the language's `given`): no soft or virtual findings.
      ...(diagram ? [] : [findingEntry(v, 'virtual'), findingEntry(v, 'soft')]),
    );
  };
  /**
   * Virtual evidence (a likelihood λ(x), any non-negative numbers) or soft evidence (Jeffrey's rule:
   * the marginal the variable must take, normalized to sum to 1) for one variable.
   */
  const findingEntry = (v: Variable, kind: 'virtual' | 'soft'): HTMLElement => {
    const have = ownValue(kind === 'virtual' ? current.likelihoods : current.soft, v.name);
    const what = kind === 'virtual' ? 'likelihood' : 'soft evidence (target probability)';
    const inputs = v.states.map((s, i) =>
      h('input', {
        type: 'number',
        min: 0,
        step: 'any',
        value: String(have?.[i] ?? (kind === 'virtual' ? 1 : (marginals.get(v.name)?.[i] ?? 1 / v.states.length))),
        'aria-label': `${what} of ${v.name} = ${s}`,
        'data-state': s,
      }),
    );
    const apply = h(
      'vscode-button',
      {
        class: kind === 'virtual' ? 'likelihood-apply' : 'soft-apply',
        'aria-label': kind === 'virtual' ? `Set likelihood of ${v.name}` : `Set soft evidence on ${v.name}`,
      },
      kind === 'virtual' ? 'Set likelihood' : 'Set soft evidence',
    );
    const error = h('span', { class: 'warning', role: 'alert' });
    apply.addEventListener('click', () => {
      const xs = inputs.map((x) => Number(x.value));
      if (xs.some((x) => !Number.isFinite(x) || x < 0) || xs.every((x) => x === 0)) {
        error.textContent = `A ${kind === 'virtual' ? 'likelihood' : 'soft finding'} is one non-negative number per state, not all zero.`;
        return;
      }
      const total = xs.reduce((a, b) => a + b, 0);
      const next = copy(current);
      delete next.evidence[v.name];
      delete next.soft[v.name];
      delete next.likelihoods[v.name];
      if (kind === 'virtual') setOwn(next.likelihoods, v.name, xs);
      else
        setOwn(
          next.soft,
          v.name,
          xs.map((x) => x / total),
        );
      change(next);
    });
    return h(
      'div',
      { class: kind === 'virtual' ? 'likelihood' : 'soft' },
      h('span', {}, kind === 'virtual' ? 'Virtual evidence, likelihood λ(x): ' : 'Soft evidence, target P(x): '),
      ...v.states.flatMap((s, i) => [h('label', {}, s, ' ', inputs[i]!)]),
      apply,
      error,
    );
  };

  listen(e.network, show);
  askDecisions();
  askDiagnosis();
  drawHeader();
  drawChips();
  drawList();
  drawDetail();
  if (evidenceKey(current) !== evidenceKey(base)) {
    const known = cachedAnswer(e.network, current, e);
    if (known) show(known, current);
    else {
      status.textContent = 'Updating the marginals for the evidence set in the panel…';
      requestMarginals(e.network, current, e);
    }
  } else status.textContent = diagram ? 'Solving the diagram…' : describe(runReply(e), e.network, hybrid);

  const rows = e.variables.flatMap((v) =>
    v.states.map((s, i) => ({
      variable: v.name,
      state: s,
      p: v.marginal[i]!,
      se: v.stderr?.[i],
      observed: v.evidence === s,
    })),
  );
  const table = h(
    'details',
    { class: 'marginals' },
    h('summary', {}, `Marginals table of the run (${rows.length} rows)`),
    dataTable(
      `marginals of ${e.network}`,
      [
        { title: 'variable', value: (r) => r.variable },
        { title: 'state', value: (r) => r.state },
        { title: 'P(state | e)', value: (r) => r.p },
        ...(method === 'exact' && e.method === 'exact'
          ? []
          : [{ title: 'std. error', value: (r: { se?: number }) => r.se }]),
        { title: 'observed', value: (r) => (r.observed ? 'yes' : '') },
      ],
      rows,
    ),
  );
  const continuousRows = e.variables.flatMap((v) =>
    v.continuous ? [{ variable: v.name, ...v.continuous.posterior, observed: v.evidence }] : [],
  );
  const densityTable = continuousRows.length
    ? h(
        'details',
        { class: 'marginals' },
        h('summary', {}, `Densities of the run (${continuousRows.length} continuous variables)`),
        dataTable(
          `posterior densities of ${e.network}`,
          [
            { title: 'variable', value: (r) => r.variable },
            { title: 'mean', value: (r) => r.mean },
            { title: 'variance', value: (r) => r.variance },
            { title: 'components', value: (r) => r.components.length },
            { title: 'observed', value: (r) => r.observed ?? '' },
          ],
          continuousRows,
        ),
      )
    : null;
  return [
    header,
    ...(e.note ? [h('p', { class: 'warning' }, e.note)] : []),
    ...(interactive ? [chips, conflict, status] : []),
    ...(decisions.size && interactive ? [diagramStatus] : []),
    graph,
    ...(interactive
      ? [
          h(
            'details',
            { class: 'marginals-interactive', open: true },
            h('summary', {}, 'Marginals (click a state to set or clear evidence)'),
            list,
          ),
          detail,
          ...(hybrid ? [] : [diagnosis]),
        ]
      : []),
    // The run's marginals of a diagram take the decisions at random: the panel shows the optimal strategy's instead.
    ...(rows.length && !diagram ? [table] : []),
    ...(densityTable ? [densityTable] : []),
  ];
}

const SAMPLERS: Record<string, string> = {
  lw: 'likelihood weighting',
  rejection: 'rejection sampling',
  gibbs: 'Gibbs sampling',
};

function how(e: { method: string; samples?: number; seed?: number }, hybrid = false): string {
  return e.method === 'exact'
    ? hybrid
      ? 'exact (Gaussian conditioning)'
      : 'exact (junction tree)'
    : `${SAMPLERS[e.method] ?? e.method}, ${e.samples ?? '?'} samples, seed ${e.seed ?? '?'}`;
}

function describe(reply: MarginalsReply, network: string, hybrid = false): string {
  if ('error' in reply) return reply.error;
  const time = reply.elapsed ? ` in ${reply.elapsed.toFixed(1)} ms` : '';
  if (reply.method === 'exact') return `Marginals of ${network}: ${how(reply, hybrid)}${time}.`;
  return `Marginals of ${network} answered by a sampler — ${how(reply, hybrid)}; each probability has a standard error${reply.note ? ` (${reply.note})` : ''}.`;
}

function runReply(e: NetworkResult): MarginalsReply {
  return {
    network: e.network,
    method: e.method as 'exact' | 'lw' | 'gibbs',
    elapsed: 0,
    marginals: Object.fromEntries(e.variables.map((v) => [v.name, v.marginal])),
    ...(e.variables.some((v) => v.continuous) ? { continuous: Object.fromEntries(runDensities(e)) } : {}),
    ...(e.variables.some((v) => v.stderr)
      ? { stderr: Object.fromEntries(e.variables.flatMap((v) => (v.stderr ? [[v.name, v.stderr]] : []))) }
      : {}),
    ...(e.samples !== undefined ? { samples: e.samples } : {}),
    ...(e.seed !== undefined ? { seed: e.seed } : {}),
  };
}

/** The graph's mark for a soft or virtual finding on the variable. */
function findingOf(e: PanelEvidence, variable: string): { finding?: { kind: 'soft' | 'virtual'; values: number[] } } {
  const soft = ownValue(e.soft, variable);
  if (soft) return { finding: { kind: 'soft', values: soft } };
  const lambda = ownValue(e.likelihoods, variable);
  return lambda ? { finding: { kind: 'virtual', values: lambda } } : {};
}

/** What is in force: hard findings, soft and virtual ones (a header must not say "none" beside chips). */
function countEvidence(e: PanelEvidence): { hard: number; soft: number; virtual: number } {
  return {
    hard: Object.keys(e.evidence).length,
    soft: Object.keys(e.soft).length,
    virtual: Object.keys(e.likelihoods).length,
  };
}

function copy(e: PanelEvidence): PanelEvidence {
  return { evidence: { ...e.evidence }, likelihoods: { ...e.likelihoods }, soft: { ...e.soft } };
}

function hasAny(e: PanelEvidence): boolean {
  return Object.keys(e.evidence).length + Object.keys(e.likelihoods).length + Object.keys(e.soft).length > 0;
}

/** What the panel's evidence says beyond the model's own `observe` lines. */
function addedEvidence(base: PanelEvidence, current: PanelEvidence): PanelEvidence {
  const out = emptyEvidence();
  for (const [v, s] of Object.entries(current.evidence))
    if (ownValue(base.evidence, v) !== s) setOwn(out.evidence, v, s);
  const same = (a: number[] | undefined, b: number[]) =>
    a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
  for (const [v, xs] of Object.entries(current.likelihoods)) {
    if (!same(ownValue(base.likelihoods, v), xs)) setOwn(out.likelihoods, v, xs);
  }
  for (const [v, xs] of Object.entries(current.soft)) if (!same(ownValue(base.soft, v), xs)) setOwn(out.soft, v, xs);
  return out;
}

/** A CPT as a table: one row per parent configuration, one column per state. */
export function cptTable(variable: string, states: string[], cpt: CptJson, limit = Infinity): HTMLElement {
  const shown = cpt.rows.slice(0, limit);
  const head = h(
    'tr',
    {},
    ...cpt.parents.map((p) => h('th', { scope: 'col' }, p)),
    ...states.map((s) => h('th', { scope: 'col' }, s)),
  );
  const body = shown.map((r) =>
    h(
      'tr',
      {},
      ...cpt.parents.map((p) => h('td', {}, r.given[p] ?? '')),
      ...states.map((s) =>
        h('td', { class: 'num', 'data-value': String(r.distribution[s] ?? '') }, prob(r.distribution[s])),
      ),
    ),
  );
  const more =
    cpt.rows.length > shown.length
      ? h('p', {}, `… ${cpt.rows.length - shown.length} more rows (click to open the table)`)
      : null;
  const title = `P(${variable}${cpt.parents.length ? ' | ' + cpt.parents.join(', ') : ''})`;
  return h(
    'div',
    { class: 'cpt' },
    h('strong', {}, title),
    h('table', { 'aria-label': title }, h('thead', {}, head), h('tbody', {}, ...body)),
    more,
  );
}

export type { Variable };
/** An arc drawn 1 px (no influence) to 6 px (the child copies the parent), its number in the tooltip. */
function influenceArc(from: string, to: string, strengths: Map<string, number>, byName: Map<string, Variable>) {
  const strength = strengths.get(`${from}\u0000${to}`);
  if (strength === undefined) return { from, to };
  const most = Math.log(Math.max(2, byName.get(from)?.states.length ?? 2));
  const share = Math.min(1, strength / most);
  return {
    from,
    to,
    strength,
    width: 1 + 5 * share,
    title: `${from} → ${to}: strength of influence ${num(strength)} nats (${(100 * share).toFixed(1)}% of the most, ln ${byName.get(from)?.states.length ?? 2})`,
  };
}

function decisionTip(name: string, alternatives: string[], information: string[]): HTMLElement {
  const knows = information.length
    ? `knows: ${information.join(', ')} (and every earlier decision)`
    : 'knows every earlier decision';
  return h(
    'div',
    { class: 'cpt' },
    h('strong', {}, `decision ${name}`),
    h('p', {}, `alternatives: ${alternatives.join(', ')}`),
    h('p', {}, knows),
  );
}

type Utility = NonNullable<NetworkResult['utilities']>[number];

function utilityTable(u: Utility): HTMLElement {
  const head = h('tr', {}, ...u.parents.map((p) => h('th', { scope: 'col' }, p)), h('th', { scope: 'col' }, 'utility'));
  const body = u.rows
    .slice(0, TOOLTIP_ROWS)
    .map((r) =>
      h(
        'tr',
        {},
        ...u.parents.map((p) => h('td', {}, r.given[p] ?? '')),
        h('td', { class: 'num', 'data-value': String(r.utility) }, String(r.utility)),
      ),
    );
  const title = `utility ${u.name}(${u.parents.join(', ')})`;
  const table = h('table', { 'aria-label': title }, h('thead', {}, head), h('tbody', {}, ...body));
  return h('div', { class: 'cpt' }, h('strong', {}, title), table);
}

/** The run's posterior density of each continuous variable. */
function runDensities(e: NetworkResult): Map<string, Mixture> {
  return new Map(e.variables.flatMap((v) => (v.continuous ? [[v.name, v.continuous.posterior] as const] : [])));
}

/** P(X | parents) of a continuous variable: its regression, one line per configuration of discrete parents. */
function regressionTip(v: Variable): HTMLElement {
  const title = `P(${v.name}${v.parents.length ? ' | ' + v.parents.join(', ') : ''})`;
  return h(
    'div',
    { class: 'cpt regression' },
    h('strong', {}, title),
    ...(v.continuous?.distribution ?? []).map((line) => h('p', {}, line)),
  );
}

/** A continuous variable's row in the marginals list: its posterior mean and variance (no states to click). */
function densityRow(v: Variable, posterior: Mixture | undefined, observed: string | undefined): HTMLElement {
  const m = posterior ?? v.continuous!.posterior;
  return h(
    'div',
    { class: 'marginal-row continuous', 'data-variable': v.name },
    h('span', { class: 'variable' }, v.name + (observed !== undefined ? ` = ${observed} (observed)` : '')),
    h('span', { class: 'num', 'data-mean': String(m.mean) }, `mean ${num(m.mean)}`),
    ' ',
    h('span', { class: 'num', 'data-variance': String(m.variance) }, `variance ${num(m.variance)}`),
  );
}

/**
 * A continuous variable's detail view: its regression, the prior (dashed) and posterior (solid)
 * densities drawn large, the posterior's mean and variance, a mixture's components, and the
 * observed value: a number typed in (Enter or Set), or cleared.
 */
function continuousDetail(
  v: Variable,
  posterior: Mixture,
  observed: string | undefined,
  setValue: (variable: string, value: string | undefined) => void,
): HTMLElement[] {
  const c = v.continuous!;
  const width = 320,
    height = 110;
  const plot = svg('svg', {
    class: 'density-plot',
    viewBox: `0 0 ${width} ${height + 18}`,
    width,
    height: height + 18,
    role: 'img',
    'aria-label': `Density of ${v.name}: prior ${momentsText(c.prior)} (dashed), posterior ${momentsText(posterior)} (solid)`,
  });
  const [lo, hi] = drawDensity(plot, { x: 4, y: 4, width: width - 8, height }, c.prior, posterior);
  plot.append(
    svg('text', { x: 4, y: height + 16, class: 'axis-label' }, num(lo)),
    svg('text', { x: width - 4, y: height + 16, class: 'axis-label', 'text-anchor': 'end' }, num(hi)),
  );
  const components =
    posterior.components.length > 1
      ? h(
          'table',
          { class: 'components', 'aria-label': `Mixture components of ${v.name} given the evidence` },
          h('thead', {}, h('tr', {}, ...['weight', 'mean', 'variance'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            ...posterior.components.map((k) =>
              h(
                'tr',
                { class: 'component' },
                h('td', { class: 'num', 'data-value': String(k.weight) }, prob(k.weight)),
                h('td', { class: 'num', 'data-value': String(k.mean) }, num(k.mean)),
                h('td', { class: 'num', 'data-value': String(k.variance) }, num(k.variance)),
              ),
            ),
          ),
        )
      : null;
  const inputId = `value-${v.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const input = h('input', {
    id: inputId,
    class: 'continuous-value',
    type: 'number',
    step: 'any',
    value: observed ?? '',
    placeholder: num(posterior.mean),
  });
  const error = h('span', { class: 'warning', role: 'alert' });
  const apply = () => {
    const text = input.value.trim();
    if (text === '') return setValue(v.name, undefined);
    if (!Number.isFinite(Number(text))) {
      error.textContent = `The value of ${v.name} is a number.`;
      return;
    }
    setValue(v.name, String(Number(text)));
  };
  input.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter') return;
    ev.preventDefault();
    apply();
  });
  const set = h('vscode-button', { class: 'value-apply', 'aria-label': `Set the observed value of ${v.name}` }, 'Set');
  set.addEventListener('click', apply);
  const clear = h(
    'vscode-button',
    {
      secondary: true,
      class: 'value-clear',
      'aria-label': `Clear the observed value of ${v.name}`,
      disabled: observed === undefined,
    },
    'Clear',
  );
  clear.addEventListener('click', () => setValue(v.name, undefined));
  return [
    ...c.distribution.map((line) =>
      h('p', { class: 'regression' }, `P(${v.name}${v.parents.length ? ' | ' + v.parents.join(', ') : ''}): ${line}`),
    ),
    h('figure', { class: 'density-figure' }, plot, h('figcaption', {}, 'prior dashed, posterior solid')),
    h(
      'p',
      { class: 'moments' },
      'Posterior: ',
      h('span', { class: 'num posterior-mean', 'data-value': String(posterior.mean) }, `mean ${num(posterior.mean)}`),
      ', ',
      h(
        'span',
        { class: 'num posterior-variance', 'data-value': String(posterior.variance) },
        `variance ${num(posterior.variance)}`,
      ),
      ` (prior: ${momentsText(c.prior)})`,
    ),
    ...(components ? [h('strong', {}, `Mixture of ${posterior.components.length} normals`), components] : []),
    h(
      'div',
      { class: 'continuous-evidence' },
      h('label', { for: inputId }, `Observed value of ${v.name}: `),
      input,
      set,
      clear,
      error,
    ),
  ];
}
