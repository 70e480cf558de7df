/** One renderer per result kind; the switch is exhaustive over ResultEntry, so a new kind fails to compile here. */
import type { ExpectResult, ResultEntry } from '../../../server/src/run/runResult.js';
import { h } from '../dom.js';
import { num } from '../format.js';
import { independenceView, marginalsView, mpeView, probabilityView, sensitivityView } from './inference.js';
import { classifyView, evaluationView, learnedNetworkView, learningCurveView, leastSquaresView, logisticView, mixtureView, structureView } from './learning.js';
import { mdlView, treeScoresView } from './mdl.js';
import { networkView } from './network.js';
import { gibbsView, likelihoodView, optimalView, parameterView, posteriorView, versionSpaceView } from './posterior.js';

export function renderEntry(e: ResultEntry): HTMLElement[] {
  switch (e.kind) {
    case 'expect': return [expectLine(e), ...(e.result ? renderEntry(e.result) : [])];
    case 'network': return networkView(e);
    case 'marginals': return marginalsView(e);
    case 'probability': return probabilityView(e);
    case 'mpe': return mpeView(e);
    case 'sensitivity': return sensitivityView(e);
    case 'independence': return independenceView(e);
    case 'learnedNetwork': return learnedNetworkView(e);
    case 'structure': return structureView(e);
    case 'mixture': return mixtureView(e);
    case 'posterior': return posteriorView(e);
    case 'versionSpace': return versionSpaceView(e);
    case 'mdl': return mdlView(e);
    case 'treeScores': return treeScoresView(e);
    case 'likelihood': return likelihoodView(e);
    case 'optimal': return optimalView(e);
    case 'gibbs': return gibbsView(e);
    case 'leastSquares': return leastSquaresView(e);
    case 'logistic': return logisticView(e);
    case 'parameter': return parameterView(e);
    case 'classify': return classifyView(e);
    case 'evaluation': return evaluationView(e);
    case 'learningCurve': return learningCurveView(e);
    default: return assertNever(e);
  }
}

function expectLine(e: ExpectResult): HTMLElement {
  const actual = typeof e.actual === 'number' ? num(e.actual, 8) : e.actual;
  return h('p', { class: e.passed ? 'pass' : 'fail' }, `${e.passed ? '✓ passed' : '✗ failed'}: expected ${e.expected}, got `,
    h('span', { class: 'num', 'data-value': String(e.actual), title: String(e.actual) }, actual));
}

function assertNever(e: never): HTMLElement[] {
  return [h('p', { class: 'warning' }, `This panel cannot show results of kind '${(e as { kind: string }).kind}' yet.`)];
}
