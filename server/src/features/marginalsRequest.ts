/**
 * `bayes/marginals`: the results panel's clicked evidence. The network is compiled from the
 * document once per (version, network) and handed to a worker thread that keeps it warm
 * (run/marginalsWorker.ts); each click is one propagation there, so the server stays responsive.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { BayesianNetwork } from '../engine/network.js';
import type { MarginalsParams, MarginalsReply } from '../protocol/messages.js';
import type { MarginalsJob, MarginalsJobReply } from '../run/marginalsWorker.js';
import { interactiveMarginals } from '../run/interactiveMarginals.js';
import { networkNamed } from './networkRequests.js';
import type { FeatureHost } from './featureHost.js';

export class MarginalsService {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (r: MarginalsJobReply) => void>();
  /** Keys whose network the worker has been sent. */
  private readonly sent = new Set<string>();

  constructor(
    private readonly host: FeatureHost,
    private workerPath: string | undefined = defaultWorkerPath(),
  ) {}

  async marginals(p: MarginalsParams): Promise<MarginalsReply> {
    if (typeof p?.uri !== 'string' || typeof p.network !== 'string') {
      return { error: 'bayes/marginals wants { uri, network, evidence }' };
    }
    const d = this.host.parse(p.uri);
    if (!d) return { error: 'the document is not open' };
    const key = `${p.uri}@${d.version}#${p.network}`;
    const request = { evidence: p.evidence ?? {}, likelihoods: p.likelihoods, soft: p.soft };
    const compile = async (): Promise<{ network: BayesianNetwork } | { error: string }> =>
      this.host.withFiles(p.uri, (env) => networkNamed(d.parse.ast, env, p.network));
    const worker = this.ensureWorker();
    if (!worker) {
      const net = await compile();
      return 'error' in net ? net : interactiveMarginals(net.network, request);
    }
    if (this.sent.has(key)) {
      const first = await this.post({ id: this.nextId++, key, request });
      if ('reply' in first) return first.reply;
    }
    const net = await compile();
    if ('error' in net) return net;
    this.sent.add(key);
    const answer = await this.post({ id: this.nextId++, key, net: net.network, request });
    return 'reply' in answer ? answer.reply : { error: 'the marginals worker lost the network' };
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private post(job: MarginalsJob): Promise<MarginalsJobReply> {
    return new Promise((resolve) => {
      this.pending.set(job.id, resolve);
      this.worker!.postMessage(job);
    });
  }

  /** The worker, started on first use; undefined when not bundled (tests from source answer inline). */
  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!this.workerPath) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerPath);
    } catch {
      // No worker threads (VS Code for the Web): every click is computed on this thread.
      this.workerPath = undefined;
      return undefined;
    }
    worker.unref();
    worker.on('message', (m: MarginalsJobReply) => {
      const done = this.pending.get(m.id);
      this.pending.delete(m.id);
      done?.(m);
    });
    const fail = (message: string) => {
      if (this.worker === worker) this.worker = undefined;
      this.sent.clear();
      for (const [id, done] of this.pending) done({ id, reply: { error: message } });
      this.pending.clear();
    };
    worker.on('error', (e) => fail(`the marginals worker failed: ${e.message}`));
    worker.on('exit', (code) => fail(`the marginals worker exited with code ${code}`));
    this.worker = worker;
    return worker;
  }
}

/** `marginalsWorker.cjs` beside the running bundle; none when running from source (tests answer inline). */
function defaultWorkerPath(): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs')
    ? join(__dirname, 'marginalsWorker.cjs')
    : undefined;
}
