/**
 * The `network` entry of a model with continuous variables (what the results panel draws as
 * densities), and the panel's clicks on it through the marginals service and its worker: each
 * continuous variable's prior and posterior mean and variance equal the closed form of Gaussian
 * conditioning (Schur complement of the joint the chain defines) to 1e-9.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from '../../../server/src/language/index.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { MarginalsService } from '../../../server/src/features/marginalsRequest.js';
import type { FeatureHost } from '../../../server/src/features/featureHost.js';
import type { MarginalsReply } from '../../../server/src/protocol/messages.js';
import { close } from '../../support/close.js';
import { repoRoot } from '../../support/shared.js';
import { assertNoErrors, resultsOf, run } from './networkHelpers.js';
import { hover } from '../../../server/src/features/hover.js';
import { positionOf } from '../../support/edits.js';

const MODEL = `network Body {
  variable Height, Weight, Fat : real
  variable Rain : bool

  P(Rain) = 0.3
  P(Height) ~ Normal(mean: 170, variance: 49)
  P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)
  P(Fat | Weight) ~ Normal(mean: 2, Weight: 0.1, variance: 1)
}
`;

/** The joint of the chain H → W → F: means and covariances from the regressions. */
const mu = { Height: 170, Weight: -10 + 0.5 * 170, Fat: 2 + 0.1 * (-10 + 0.5 * 170) };
const vH = 49,
  vW = 0.25 * vH + 4,
  vF = 0.01 * vW + 1;
const cov: Record<string, Record<string, number>> = {
  Height: { Height: vH, Weight: 0.5 * vH, Fat: 0.1 * 0.5 * vH },
  Weight: { Height: 0.5 * vH, Weight: vW, Fat: 0.1 * vW },
  Fat: { Height: 0.1 * 0.5 * vH, Weight: 0.1 * vW, Fat: vF },
};
/** X given Weight = w: μ_X + Σ_XW/Σ_WW (w − μ_W), Σ_XX − Σ_XW²/Σ_WW. */
const givenWeight = (x: 'Height' | 'Fat', w: number) => ({
  mean: mu[x] + (cov[x]!.Weight! / vW) * (w - mu.Weight),
  variance: cov[x]![x]! - cov[x]!.Weight! ** 2 / vW,
});

test('a Gaussian network entry: prior and posterior densities given observe Weight = 80, the discrete part as before', async () => {
  const result = await run(`${MODEL.replace(/}\n$/, '  observe Weight = 80\n}\n')}`);
  assertNoErrors(result);
  const [entry] = resultsOf(result, 'network');
  assert.equal(entry!.method, 'exact');
  const by = new Map(entry!.variables.map((v) => [v.name, v]));
  for (const x of ['Height', 'Fat'] as const) {
    const c = by.get(x)!.continuous!;
    close(c.prior.mean, mu[x], 1e-9);
    close(c.prior.variance, cov[x]![x]!, 1e-9);
    close(c.posterior.mean, givenWeight(x, 80).mean, 1e-9);
    close(c.posterior.variance, givenWeight(x, 80).variance, 1e-9);
    assert.equal(c.posterior.components.length, 1);
  }
  const weight = by.get('Weight')!;
  assert.equal(weight.evidence, '80');
  assert.deepEqual([weight.continuous!.posterior.mean, weight.continuous!.posterior.variance], [80, 0]);
  assert.deepEqual(weight.continuous!.distribution, ['Normal(-10 + 0.5·Height, 4)']);
  assert.deepEqual(weight.parents, ['Height']);
  assert.deepEqual(by.get('Rain')!.marginal, [0.3, 0.7]);
  assert.equal(entry!.headline, 'Body: 4 variables, 1 observed');
  // A hover on Height after the run: its posterior mean and variance, not an empty bar chart.
  const text = `${MODEL.replace(/}\n$/, '  observe Weight = 80\n}\n')}`;
  const at = positionOf(text, 'Height, Weight, Fat');
  const shown = hover(parseDocument(text).ast, at, result);
  const value = JSON.stringify(shown?.contents);
  assert.match(value, new RegExp(`Height in network Body, exact: mean ${givenWeight('Height', 80).mean}`));
});

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-hybrid-panel-'));
  const path = join(dir, 'body.bayes');
  writeFileSync(path, MODEL);
  const uri = pathToFileURL(path).toString();
  const host = {
    parse: (u: string) => (u === uri ? { version: 1, text: MODEL, parse: parseDocument(MODEL) } : undefined),
    withFiles: <T>(_: string, use: (env: ReturnType<typeof nodeEnvironment>) => T) =>
      Promise.resolve(use(nodeEnvironment({ documentPath: path, workspaceRoot: dir }))),
    runLimits: () => Promise.resolve({ timeoutMs: 60_000, memoryMb: 512 }),
  } as unknown as FeatureHost;
  return { dir, uri, host };
}

const WORKER = join(repoRoot, 'dist', 'marginalsWorker.cjs');

for (const where of ['in the worker', 'on the thread (no worker threads)'] as const) {
  test(`the panel's clicks on a Gaussian network ${where}: a number as evidence conditions every density`, async (t) => {
    if (where === 'in the worker' && !existsSync(WORKER)) return t.skip('dist/marginalsWorker.cjs is not built');
    const { dir, uri, host } = fixture();
    const service = new MarginalsService(host, where === 'in the worker' ? WORKER : undefined);
    try {
      for (const w of [80, 62.5, -3]) {
        const r = (await service.marginals({ uri, network: 'Body', evidence: { Weight: String(w) } })) as Extract<
          MarginalsReply,
          { marginals: unknown }
        >;
        assert.ok(!('error' in r), JSON.stringify(r));
        assert.equal(r.method, 'exact');
        for (const x of ['Height', 'Fat'] as const) {
          close(r.continuous![x]!.mean, givenWeight(x, w).mean, 1e-9, `${x} | Weight = ${w}`);
          close(r.continuous![x]!.variance, givenWeight(x, w).variance, 1e-9);
        }
        assert.deepEqual(r.marginals['Rain'], [0.3, 0.7]);
        // The density of the evidence: Weight ~ N(75, 16.25).
        close(r.logEvidence, -0.5 * Math.log(2 * Math.PI * vW) - (w - mu.Weight) ** 2 / (2 * vW), 1e-9);
      }
      const rained = (await service.marginals({ uri, network: 'Body', evidence: { Rain: 'true' } })) as Extract<
        MarginalsReply,
        { marginals: unknown }
      >;
      assert.deepEqual(rained.marginals['Rain'], [1, 0]);
      close(rained.continuous!['Height']!.variance, vH, 1e-9);
      const bad = await service.marginals({ uri, network: 'Body', evidence: { Weight: 'heavy' } });
      assert.deepEqual(bad, { error: "'Weight' is continuous: observe it as a number, not 'heavy'" });
      // Soft findings take discrete nodes (Jeffrey's rule: Rain's posterior becomes q), not continuous ones.
      const soft = await service.marginals({ uri, network: 'Body', evidence: {}, soft: { Rain: [0.5, 0.5] } });
      const softRain = (soft as Extract<MarginalsReply, { marginals: unknown }>).marginals['Rain']!;
      softRain.forEach((p) => close(p, 0.5, 1e-9));
      const onHeight = await service.marginals({ uri, network: 'Body', evidence: {}, soft: { Height: [0.5, 0.5] } });
      assert.match((onHeight as { error: string }).error, /'Height' is continuous/);
    } finally {
      service.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
