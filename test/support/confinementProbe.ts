/**
 * Run in a child process by test/unit/workspace/confinement.test.ts (so a regression that blocks
 * on a FIFO or reads /dev/zero hangs or bloats the child, which the test times out and measures,
 * not the test runner). For each case: the checker with the synchronous environment (CLI, run
 * worker), the server's asynchronous one (FileFacts), a run, every confined read of Files, the
 * run cache's key and the data-table quick fix. Prints one JSON object.
 */
import { join } from 'node:path';
import { checkText, runText } from '../../server/src/run/pipeline.js';
import { nodeEnvironment, nodeFiles, type NodeEnvironmentOptions } from '../../server/src/workspace/files.js';
import { FileFacts } from '../../server/src/workspace/fileFacts.js';
import { RunCache } from '../../server/src/run/runCache.js';
import { dataTableActions } from '../../server/src/features/dataTableActions.js';
import { resolvePath } from '../../server/src/language/paths.js';
import type { CheckEnvironment } from '../../server/src/language/index.js';
import type { ParsedDocument } from '../../server/src/workspace/documents.js';

export interface ProbeCase {
  name: string;
  written: string;
  kind: 'data' | 'import' | 'corpus';
  dataRoots?: string[];
}

export interface ProbeOutcome {
  name: string;
  /** Diagnostics on the path's line: code and message. */
  check: { code: string; message: string }[];
  server: { code: string; message: string }[];
  run: { code: string; message: string }[];
  /** What each Files read did: 'ok' or the error's message. */
  reads: Record<string, string>;
  cacheKey: string;
  quickFixes: string[];
  ms: number;
}

export function modelText(c: ProbeCase): string {
  if (c.kind === 'import') return `import network N from "${c.written}"\nquery P(a) in N\n`;
  if (c.kind === 'corpus') {
    return `corpus News from "${c.written}" label folder\nclassifier NB = text_naive_bayes(News)\nquery evaluate NB split 2/3 { seed: 1 }\n`;
  }
  return `variable a, b : real\ndata D from "${c.written}"\nmixture M = gaussians(D[a, b], k: 1)\nlearn M by em { seed: 1 }\n`;
}

const line = (c: ProbeCase) => (c.kind === 'data' ? 1 : 0);
const onPath = (c: ProbeCase, ds: { code?: string; message: string; range: { start: { line: number } } }[]) =>
  ds.filter((d) => d.range.start.line === line(c)).map((d) => ({ code: String(d.code), message: d.message }));

async function serverCheck(text: string, options: NodeEnvironmentOptions) {
  const facts = new FileFacts();
  const env = facts.environment(options);
  let result = checkText(text, env);
  for (let pass = 0; pass < 3 && env.missed.size > 0; pass++) {
    const missed = [...env.missed];
    env.missed.clear();
    await facts.fetch(env, missed);
    result = checkText(text, env);
  }
  return result;
}

async function settle(p: () => Promise<unknown> | AsyncIterable<unknown>): Promise<string> {
  try {
    const r = p();
    if (Symbol.asyncIterator in (r as object)) {
      for await (const _ of r as AsyncIterable<unknown>) {
        /* drain */
      }
    } else await r;
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

async function probe(models: string, workspace: string, c: ProbeCase): Promise<ProbeOutcome> {
  const t0 = performance.now();
  const documentPath = join(models, 'model.bayes');
  const options: NodeEnvironmentOptions = { documentPath, workspaceRoot: workspace, dataRoots: c.dataRoots ?? [] };
  const text = modelText(c);
  const env: CheckEnvironment = nodeEnvironment(options);
  const check = onPath(c, checkText(text, env).diagnostics);
  const server = onPath(c, (await serverCheck(text, options)).diagnostics);
  const run = onPath(c, (await runText(text, documentPath, nodeEnvironment(options))).diagnostics);
  const files = nodeFiles(options);
  const absolute = resolvePath(models, c.written);
  const reads: Record<string, string> = {
    stamp: await settle(() => files.stamp(absolute)),
    head: await settle(() => files.head(absolute, 100)),
    bytes: await settle(() => files.bytes(absolute)),
    hash: await settle(() => files.hash(absolute)),
    chunks: await settle(() => files.chunks(absolute)),
    sync: await settle(async () => nodeEnvironment(options).readText!(absolute)),
  };
  const parse = checkText(text, env).parse;
  const cacheKey = await new RunCache().key(text, parse.ast, documentPath, env.allowedRoots, '', files);
  const doc = {
    document: { uri: 'file://' + documentPath, version: 1 },
    version: 1,
    text,
    parse,
  } as unknown as ParsedDocument;
  const position = { line: line(c), character: 3 };
  const actions =
    c.kind === 'data'
      ? await dataTableActions(
          doc,
          {
            textDocument: { uri: doc.document.uri },
            range: { start: position, end: position },
            context: { diagnostics: [] },
          },
          { trusted: true, documentPath, files },
        )
      : [];
  return {
    name: c.name,
    check,
    server,
    run,
    reads,
    cacheKey,
    quickFixes: actions.map((a) => JSON.stringify(a)),
    ms: performance.now() - t0,
  };
}

const [models, workspace, casesJson] = process.argv.slice(2);
const outcomes: ProbeOutcome[] = [];
for (const c of JSON.parse(casesJson!) as ProbeCase[]) outcomes.push(await probe(models!, workspace!, c));
process.stdout.write(JSON.stringify({ outcomes, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
