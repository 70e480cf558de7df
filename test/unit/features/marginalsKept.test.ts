/**
 * What the marginals worker keeps (the bundled dist/marginalsWorker.cjs, as the server runs it):
 * after 10 × (edit, click) on a model importing ALARM it holds one network — the current
 * version's — not ten; over its byte cap it drops the least recently used network; a closed
 * document's worker holds nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from '../../../server/src/language/index.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { MarginalsService } from '../../../server/src/features/marginalsRequest.js';
import type { FeatureHost } from '../../../server/src/features/featureHost.js';
import type { MarginalsReply } from '../../../server/src/protocol/messages.js';
import { repoRoot } from '../../support/shared.js';

const WORKER = join(repoRoot, 'dist', 'marginalsWorker.cjs');
const MODEL = 'import network Alarm from "alarm.bif"\nnetwork Quick {\n  variable B : bool\n  P(B) = 0.6\n}\n';

function fixture(): { dir: string; uri: string; host: FeatureHost; edit(text: string): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-kept-'));
  copyFileSync(join(repoRoot, 'examples', 'data', 'alarm.bif'), join(dir, 'alarm.bif'));
  const path = join(dir, 'm.bayes');
  const uri = pathToFileURL(path).toString();
  let doc = { version: 1, text: MODEL };
  const host = {
    parse: (u: string) =>
      u === uri ? { version: doc.version, text: doc.text, parse: parseDocument(doc.text) } : undefined,
    withFiles: <T>(_: string, use: (env: ReturnType<typeof nodeEnvironment>) => T) =>
      Promise.resolve(use(nodeEnvironment({ documentPath: path, workspaceRoot: dir }))),
    runLimits: () => Promise.resolve({ timeoutMs: 60_000, memoryMb: 512 }),
  } as unknown as FeatureHost;
  return { dir, uri, host, edit: (text) => (doc = { version: doc.version + 1, text }) };
}

const ok = (r: MarginalsReply) => {
  assert.ok(!('error' in r), JSON.stringify(r));
  return r as Extract<MarginalsReply, { marginals: unknown }>;
};

test('10 × (edit, click): the worker keeps the current version only, the same bytes each time', async (t) => {
  if (!existsSync(WORKER)) return t.skip('dist/marginalsWorker.cjs is not built (node esbuild.mjs)');
  const { dir, uri, host, edit } = fixture();
  const service = new MarginalsService(host, WORKER);
  try {
    let bytes: number | undefined;
    for (let i = 0; i < 10; i++) {
      edit(`${MODEL}// edit ${i}\n`);
      const answer = ok(await service.marginals({ uri, network: 'Alarm', evidence: { HRBP: 'HIGH' } }));
      assert.equal(answer.method, 'exact');
      const kept = service.kept(uri)!;
      assert.equal(kept.networks, 1, `after edit ${i}`);
      bytes ??= kept.bytes;
      assert.equal(kept.bytes, bytes, `after edit ${i}`);
    }
    // ALARM's 509 parameters are 4 KB; with its junction tree it is well over that, and bounded.
    assert.ok(bytes! > 4072 && bytes! < 4 << 20, `${bytes} bytes`);
    service.close(uri);
    assert.equal(service.kept(uri), undefined);
  } finally {
    service.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('over its byte cap the worker drops the least recently used network; under it both stay', async (t) => {
  if (!existsSync(WORKER)) return t.skip('dist/marginalsWorker.cjs is not built (node esbuild.mjs)');
  const { dir, uri, host } = fixture();
  const roomy = new MarginalsService(host, WORKER);
  try {
    ok(await roomy.marginals({ uri, network: 'Alarm', evidence: {} }));
    const alarm = roomy.kept(uri)!.bytes;
    const quick = ok(await roomy.marginals({ uri, network: 'Quick', evidence: {} }));
    assert.ok(Math.abs(quick.marginals['B']![0]! - 0.6) < 1e-12);
    assert.equal(roomy.kept(uri)!.networks, 2);
    roomy.dispose();
    const tight = new MarginalsService(host, WORKER, alarm);
    try {
      ok(await tight.marginals({ uri, network: 'Alarm', evidence: {} }));
      ok(await tight.marginals({ uri, network: 'Quick', evidence: {} }));
      const kept = tight.kept(uri)!;
      assert.equal(kept.networks, 1);
      assert.ok(kept.bytes < alarm, `${kept.bytes} bytes kept: Quick, ALARM dropped`);
      // ALARM is compiled again when asked for, and still answers.
      ok(await tight.marginals({ uri, network: 'Alarm', evidence: { HRBP: 'HIGH' } }));
      assert.equal(tight.kept(uri)!.networks, 1);
    } finally {
      tight.dispose();
    }
  } finally {
    roomy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
