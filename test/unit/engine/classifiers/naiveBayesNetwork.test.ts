import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  trainNaiveBayes,
  classifyNaiveBayes,
  naiveBayesNetwork,
} from '../../../../server/src/engine/classifiers/naiveBayes.js';
import { posteriorQuery } from '../../../../server/src/engine/inference/marginals.js';
import { variableIndexMap } from '../../../../server/src/engine/network.js';
import { playTennis } from '../fixtures.js';
import { close } from '../../../support/close.js';

test('naive Bayes as a network: inference gives the classifier posterior (PlayTennis, P(no|x) = 0.7954)', () => {
  for (const smoothing of [
    { kind: 'none' } as const,
    { kind: 'laplace' } as const,
    { kind: 'mEstimate', m: 2 } as const,
  ]) {
    const model = trainNaiveBayes(playTennis(), 'PlayTennis', smoothing);
    const net = naiveBayesNetwork(model, 'PlayNB');
    const index = variableIndexMap(net);
    const x = { Outlook: 'Sunny', Temperature: 'Cool', Humidity: 'High', Wind: 'Strong' };
    const evidence = new Map(
      Object.entries(x).map(([k, v]) => [index.get(k)!, net.variables[index.get(k)!]!.states.indexOf(v)]),
    );
    const answer = posteriorQuery(net, [index.get('PlayTennis')!], evidence, { method: 'exact' });
    assert.ok(answer.ok);
    const direct = classifyNaiveBayes(model, x);
    const no = net.variables[0]!.states.indexOf('No');
    close(answer.factor.values[no]!, direct.classes[no]!.posterior!, 1e-12, smoothing.kind);
    if (smoothing.kind === 'none') close(answer.factor.values[no]!, 0.7954, 1e-4);
  }
});
