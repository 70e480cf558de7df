import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runText } from '../../../server/src/run/pipeline.js';
import { HANDLERS } from '../../../server/src/run/handlers/index.js';
import type { Handler, HandlerContext, HandlerKey, HandlerTable } from '../../../server/src/run/handlerContext.js';
import type { ExpectResult } from '../../../server/src/protocol/runResult.js';
import { fakeEnv } from '../language/helpers.js';

const model = `variable Test { pos, neg }
hypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) { cancer: [0.98, 0.02], healthy: [0.03, 0.97] }
query ml Diagnosis
query map Diagnosis given Test = pos
expect map Diagnosis given Test = pos = healthy
expect map Diagnosis given Test = pos = cancer
`;

/** Runs `body` with a handler table where `handler` (or none) stands in for the one of `key`. */
async function withHandler(
  key: HandlerKey,
  handler: Handler | undefined,
  body: (handlers: HandlerTable) => Promise<void>,
): Promise<void> {
  const handlers: Partial<Record<HandlerKey, Handler>> = { ...HANDLERS };
  if (handler) handlers[key] = handler;
  else delete handlers[key];
  await body(handlers);
}

test('a form without a handler is an error on its statement, never a number', async () => {
  await withHandler('query mpe', undefined, async (handlers) => {
    const result = await runText(
      'network N {\n  variable A : bool\n  P(A) = 0.5\n}\nquery mpe N',
      'm.bayes',
      fakeEnv(),
      { handlers },
    );
    const notImplemented = result.diagnostics.filter((d) => d.code === 'not-implemented');
    assert.deepEqual(
      notImplemented.map((d) => [d.message, d.range.start.line]),
      [['`query mpe` is not implemented yet', 4]],
    );
    // Only the network itself is reported (for the graph view), no answer to the query.
    assert.deepEqual(
      result.results.map((r) => r.kind),
      ['network'],
    );
  });
});

test('registered handlers run in order; expect compares their value; failures are errors', async () => {
  const seen: string[] = [];
  await withHandler(
    'query map',
    (ctx: HandlerContext) => {
      seen.push(ctx.source);
      const headline = 'healthy · 0.7915';
      const entry = {
        kind: 'likelihood' as const,
        hypothesis: 'healthy',
        likelihood: 0.03,
        range: ctx.statement.range,
        source: ctx.source,
        headline,
      };
      return { value: 'healthy', diagnostics: [], results: [entry] };
    },
    async (handlers) => {
      const result = await runText(model, 'm.bayes', fakeEnv(), { handlers });
      assert.deepEqual(seen, [
        'query map Diagnosis given Test = pos',
        'expect map Diagnosis given Test = pos = healthy',
        'expect map Diagnosis given Test = pos = cancer',
      ]);
      const expects = result.results.filter((r): r is ExpectResult => r.kind === 'expect');
      assert.deepEqual(
        expects.map((e) => [e.passed, e.actual, e.expected]),
        [
          [true, 'healthy', '= healthy'],
          [false, 'healthy', '= cancer'],
        ],
      );
      assert.equal(expects[0].result?.kind, 'likelihood');
      const failed = result.diagnostics.find((d) => d.code === 'expect-failed')!;
      assert.equal(failed.message, 'expected = cancer but the model gives healthy');
      assert.equal(failed.range.start.line, 6);
      // `query ml Diagnosis` (line 3) still runs through its real handler.
      const ml = result.results.find((r) => r.range.start.line === 3);
      assert.equal(ml?.kind, 'posterior');
    },
  );
});

test('numeric expectations: ≈ with and without tolerance, and order comparisons', async () => {
  await withHandler(
    'query probability',
    () => ({ value: 0.2085, results: [], diagnostics: [] }),
    async (handlers) => {
      const text =
        'variable A : bool\nP(A) = 0.2\nexpect P(A = true) ≈ 0.2 ± 0.01\nexpect P(A = true) ≈ 0.2\nexpect P(A = true) < 0.3\nexpect P(A = true) >= 21%';
      const result = await runText(text, 'm.bayes', fakeEnv(), { handlers });
      assert.deepEqual(
        result.results.filter((r) => r.kind === 'expect').map((r) => r.kind === 'expect' && r.passed),
        [true, false, true, false],
      );
    },
  );
});

test('statements with errors in their own range are skipped; the others still run', async () => {
  let calls = 0;
  await withHandler(
    'query posterior',
    () => {
      calls++;
      return { value: 1, results: [], diagnostics: [] };
    },
    async (handlers) => {
      const result = await runText(
        'hypotheses H { a: 0.5, b: 0.5 }\nquery posterior Nope\nquery posterior H',
        'm.bayes',
        fakeEnv(),
        { handlers },
      );
      assert.equal(calls, 1);
      assert.deepEqual(
        result.diagnostics.map((d) => d.code),
        ['undefined-name'],
      );
    },
  );
});

test('a handler that throws becomes an error diagnostic', async () => {
  await withHandler(
    'learn',
    () => {
      throw new Error('boom');
    },
    async (handlers) => {
      const result = await runText(
        'network N {\n  variable A : bool\n}\ndata D {\n  A\n  true\n}\nlearn N from D',
        'm.bayes',
        fakeEnv(),
        { handlers },
      );
      assert.deepEqual(
        result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
        ['`learn` failed: boom'],
      );
    },
  );
});

test('an aborted run stops before the next statement', async () => {
  const controller = new AbortController();
  let calls = 0;
  await withHandler(
    'query ml',
    () => {
      calls++;
      controller.abort();
      return { value: 'a', results: [], diagnostics: [] };
    },
    async (handlers) => {
      await runText('hypotheses H { a: 0.5, b: 0.5 }\nquery ml H\nquery ml H', 'm.bayes', fakeEnv(), {
        signal: controller.signal,
        handlers,
      });
      assert.equal(calls, 1);
    },
  );
});
