/** One renderer per result kind; a kind added to ResultEntry without one is shown as a table of its fields. */
import type { ExpectResult, ResultBase, ResultEntry } from '../../../server/src/protocol/runResult.js';
import { dataTable } from '../table.js';
import { h } from '../dom.js';
import { num } from '../format.js';
import {
  continuousView,
  independenceView,
  marginalsView,
  mpeView,
  probabilityView,
  sensitivityView,
} from './inference.js';
import {
  classifyView,
  evaluationView,
  learnedNetworkView,
  learningCurveView,
  leastSquaresView,
  logisticView,
  mixtureView,
  structureView,
} from './learning.js';
import { networkEvaluationView } from './learning.js';
import { predictionView, validationView } from './validation.js';
import { mdlView, treeScoresView } from './mdl.js';
import { networkView } from './network.js';
import { sequenceView } from './dynamic.js';
import { effectView, expectedUtilityView, policyView, voiView } from './decisions.js';
import { gibbsView, likelihoodView, optimalView, parameterView, posteriorView, versionSpaceView } from './posterior.js';

export function renderEntry(e: ResultEntry): HTMLElement[] {
  switch (e.kind) {
    case 'expect':
      return [expectLine(e), ...(e.result ? renderEntry(e.result) : [])];
    case 'network':
      return networkView(e);
    case 'marginals':
      return marginalsView(e);
    case 'probability':
      return probabilityView(e);
    case 'continuous':
      return continuousView(e);
    case 'mpe':
      return mpeView(e);
    case 'sensitivity':
      return sensitivityView(e);
    case 'independence':
      return independenceView(e);
    case 'learnedNetwork':
      return learnedNetworkView(e);
    case 'structure':
      return structureView(e);
    case 'mixture':
      return mixtureView(e);
    case 'estimate':
      return [
        h(
          'p',
          {},
          `${e.model}.${e.parameter} = `,
          h('span', { class: 'num', 'data-value': String(e.value) }, num(e.value, 6)),
        ),
      ];
    case 'posterior':
      return posteriorView(e);
    case 'versionSpace':
      return versionSpaceView(e);
    case 'mdl':
      return mdlView(e);
    case 'treeScores':
      return treeScoresView(e);
    case 'likelihood':
      return likelihoodView(e);
    case 'optimal':
      return optimalView(e);
    case 'gibbs':
      return gibbsView(e);
    case 'leastSquares':
      return leastSquaresView(e);
    case 'logistic':
      return logisticView(e);
    case 'parameter':
      return parameterView(e);
    case 'classify':
      return classifyView(e);
    case 'evaluation':
      return evaluationView(e);
    case 'learningCurve':
      return learningCurveView(e);
    case 'policy':
      return policyView(e);
    case 'expectedUtility':
      return expectedUtilityView(e);
    case 'valueOfInformation':
      return voiView(e);
    case 'effect':
      return effectView(e);
    case 'networkEvaluation':
      return networkEvaluationView(e);
    case 'prediction':
      return predictionView(e);
    case 'validation':
      return validationView(e);
    case 'sequence':
      return sequenceView(e);
    default:
      return fieldsView(e as ResultBase);
  }
}

function expectLine(e: ExpectResult): HTMLElement {
  const actual = typeof e.actual === 'number' ? num(e.actual, 8) : e.actual;
  return h(
    'p',
    { class: e.passed ? 'pass' : 'fail' },
    `${e.passed ? '✓ passed' : '✗ failed'}: expected ${e.expected}, got `,
    h('span', { class: 'num', 'data-value': String(e.actual), title: String(e.actual) }, actual),
  );
}

/** Scalars and number lists of an entry this panel has no view for yet, so its numbers are still shown and copyable. */
function fieldsView(e: ResultBase): HTMLElement[] {
  const skip = new Set(['kind', 'range', 'source', 'headline']);
  const rows = Object.entries(e)
    .filter(
      ([k, v]) =>
        !skip.has(k) &&
        (['number', 'string', 'boolean'].includes(typeof v) ||
          (Array.isArray(v) && v.every((x) => typeof x === 'number'))),
    )
    .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)] as [string, string]);
  return [
    dataTable(
      `${e.kind} fields`,
      [
        { title: 'field', value: (r) => r[0] },
        { title: 'value', value: (r) => r[1] },
      ],
      rows,
    ),
  ];
}
