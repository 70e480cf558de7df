/**
 * The results panel's requests on a document's networks — `bayes/marginals` (clicked evidence),
 * `bayes/diagnosis` and `bayes/decisions` (features/diagnosisRequest.ts, decisionsRequest.ts
 * check their parameters and come here). The network is compiled from the document once per
 * (version, network) and handed to the document's own worker thread, which keeps it warm
 * (run/marginalsWorker.ts) and answers each question there (run/panelQueries.ts), so the server
 * stays responsive however large the network. Requests of one document are answered in order,
 * one at a time; another document's have their own worker and never wait behind them. Each
 * request is held to the run's limits (bayes.run.timeoutSeconds, bayes.run.memoryMb): past them
 * the document's worker is terminated, the request answers with an error, and the next one starts
 * a new worker.
 */
import { Worker } from 'node:worker_threads';
import type { BayesianNetwork } from '../engine/network.js';
import type { MarginalsParams, MarginalsReply } from '../protocol/messages.js';
import type { KeptNetworks, MarginalsJob, MarginalsJobReply } from '../run/marginalsWorker.js';
import { panelAnswer, requestWork, type PanelReply, type PanelRequest } from '../run/panelQueries.js';
import { bundledWorker, type Limits } from '../run/limitedWorker.js';
import { hybridNetworkNamed, networkNamed } from './networkRequests.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import type { FeatureHost } from './featureHost.js';

/** Document workers at once: a new document's stops the least recently used idle one. */
const MAX_WORKERS = 4;
/** As the run's defaults (workspace/settings.ts), for hosts that do not say. */
const DEFAULT_LIMITS: Limits = { timeoutMs: 120_000, memoryMb: 2048 };

interface DocumentWorker {
  worker: Worker;
  memoryMb: number;
  /** The version whose networks the worker has been sent, and their names. */
  version: number;
  sent: Set<string>;
  /** The request in flight, answered by the worker's reply, a limit, or the worker's end. */
  current?: { id: number; done: (reply: MarginalsJobReply) => void };
  kept?: KeptNetworks;
}

export class MarginalsService {
  /** By document URI, least recently used first. */
  private readonly workers = new Map<string, DocumentWorker>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private nextId = 1;

  constructor(
    private readonly host: FeatureHost,
    private workerPath: string | undefined = bundledWorker('marginalsWorker.cjs'),
    /** What a document's worker keeps, in bytes; default half the memory setting (exact inference's share). */
    private readonly keepBytes?: number,
  ) {}

  marginals(p: MarginalsParams): Promise<MarginalsReply> {
    if (typeof p?.uri !== 'string' || typeof p.network !== 'string') {
      return Promise.resolve({ error: 'bayes/marginals wants { uri, network, evidence }' });
    }
    const request: PanelRequest = {
      kind: 'marginals',
      evidence: p.evidence ?? {},
      likelihoods: p.likelihoods,
      soft: p.soft,
    };
    return this.ask(p.uri, p.network, request) as Promise<MarginalsReply>;
  }

  /** Any of the panel's questions on a network of the document, in the document's order (callers check parameters). */
  ask(uri: string, network: string, request: PanelRequest): Promise<PanelReply> {
    const mine = (this.queues.get(uri) ?? Promise.resolve()).then(() => this.answer(uri, network, request));
    const tail = mine.catch(() => undefined);
    this.queues.set(uri, tail);
    void tail.then(() => {
      if (this.queues.get(uri) === tail) this.queues.delete(uri);
    });
    return mine;
  }

  /** What the document's worker held after its last answer (tests, and the memory it keeps idle). */
  kept(uri: string): KeptNetworks | undefined {
    return this.workers.get(uri)?.kept;
  }

  /** The document was closed: its worker and the networks it kept go. */
  close(uri: string): void {
    const doc = this.workers.get(uri);
    if (doc) this.stop(uri, doc, 'the document was closed');
  }

  dispose(): void {
    for (const [uri, doc] of [...this.workers]) this.stop(uri, doc, 'the server is shutting down');
  }

  private async answer(uri: string, network: string, request: PanelRequest): Promise<PanelReply> {
    const d = this.host.parse(uri);
    if (!d) return { error: 'the document is not open' };
    const limits = (await this.host.runLimits?.(uri)) ?? DEFAULT_LIMITS;
    const memoryBytes = limits.memoryMb * 2 ** 20;
    // A model with `Normal(…)` tables (`~ Normal(…)`, CLG rows) or an imported Hugin NET file may have continuous
    // variables: the hybrid IR, answered by the hybrid engine.
    const mayBeHybrid = /\bNormal\s*\(|\bimport\s+network\b/.test(d.text);
    const compile = async (): Promise<{ network: BayesianNetwork | HybridNetwork } | { error: string }> =>
      this.host.withFiles(
        uri,
        (env) =>
          (mayBeHybrid ? hybridNetworkNamed(d.parse.ast, env, network) : undefined) ??
          networkNamed(d.parse.ast, env, network),
      );
    const job = (net?: BayesianNetwork | HybridNetwork): MarginalsJob => ({
      id: this.nextId++,
      key: network,
      version: d.version,
      request,
      memoryBytes,
      keepBytes: this.keepBytes ?? memoryBytes / 2,
      ...(net ? { net } : {}),
    });
    const named = (reply: PanelReply): PanelReply => ('network' in reply ? { ...reply, network } : reply);
    const warm = this.documentWorker(uri, limits.memoryMb);
    if (!warm) {
      const net = await compile();
      return 'error' in net ? net : named(panelAnswer(net.network, request, memoryBytes));
    }
    if (warm.version === d.version && warm.sent.has(network)) {
      const first = await this.post(uri, warm, job(), limits, network);
      if ('reply' in first) return named(first.reply);
    }
    const net = await compile();
    if ('error' in net) return net;
    // The worker may have been stopped meanwhile (a limit, a close): this one is started anew.
    const doc = this.documentWorker(uri, limits.memoryMb);
    if (!doc) return named(panelAnswer(net.network, request, memoryBytes));
    if (doc.version !== d.version) {
      doc.version = d.version;
      doc.sent.clear();
    }
    doc.sent.add(network);
    const answer = await this.post(uri, doc, job(net.network), limits, network);
    return 'reply' in answer ? named(answer.reply) : { error: 'the marginals worker lost the network' };
  }

  /** Sends one job; the answer, or an error when the worker passes the time or memory limit or ends. */
  private post(
    uri: string,
    doc: DocumentWorker,
    job: MarginalsJob,
    limits: Limits,
    network: string,
  ): Promise<MarginalsJobReply> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () =>
          this.stop(
            uri,
            doc,
            `the ${requestWork(job.request)} of '${network}' took longer than ${limits.timeoutMs / 1000} s and ${stoppedVerb(job.request)} stopped ` +
              '(setting bayes.run.timeoutSeconds)',
          ),
        limits.timeoutMs,
      );
      // The heap limit does not count typed arrays (the junction tree): watch the process as a whole.
      const baseline = process.memoryUsage.rss();
      const watch = setInterval(() => {
        if ((process.memoryUsage.rss() - baseline) / 2 ** 20 > limits.memoryMb)
          this.stop(uri, doc, memoryMessage(limits, requestWork(job.request)));
      }, 100);
      doc.current = {
        id: job.id,
        done: (reply) => {
          clearTimeout(timer);
          clearInterval(watch);
          doc.current = undefined;
          if (reply.kept) doc.kept = reply.kept;
          resolve(reply);
        },
      };
      doc.worker.postMessage(job);
    });
  }

  /** Terminates a document's worker; its request in flight answers with `message`. */
  private stop(uri: string, doc: DocumentWorker, message: string): void {
    if (this.workers.get(uri) === doc) this.workers.delete(uri);
    void doc.worker.terminate();
    doc.current?.done({ id: doc.current.id, reply: { error: message } });
  }

  /** The document's worker (the most recently used now), started on first use; undefined without worker threads. */
  private documentWorker(uri: string, memoryMb: number): DocumentWorker | undefined {
    const known = this.workers.get(uri);
    if (known && known.memoryMb === memoryMb) {
      this.workers.delete(uri);
      this.workers.set(uri, known);
      return known;
    }
    if (known) this.stop(uri, known, 'the memory setting changed');
    if (!this.workerPath) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerPath, { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: true });
    } catch {
      // No worker threads (VS Code for the Web): every click is computed on this thread.
      this.workerPath = undefined;
      return undefined;
    }
    worker.stdout.pipe(process.stderr); // the server's stdout may be the LSP channel
    worker.unref();
    const doc: DocumentWorker = { worker, memoryMb, version: -1, sent: new Set() };
    worker.on('message', (m: MarginalsJobReply) => {
      if (doc.current?.id === m.id) doc.current.done(m);
    });
    worker.on('error', (e: Error & { code?: string }) =>
      this.stop(
        uri,
        doc,
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? memoryMessage({ memoryMb })
          : `the marginals worker failed: ${e.message}`,
      ),
    );
    worker.on('exit', (code) => this.stop(uri, doc, `the marginals worker exited with code ${code}`));
    this.workers.set(uri, doc);
    this.evictIdle(uri);
    return doc;
  }

  /** Past MAX_WORKERS, the least recently used idle workers (not `keep`) are stopped. */
  private evictIdle(keep: string): void {
    for (const [uri, doc] of [...this.workers]) {
      if (this.workers.size <= MAX_WORKERS) return;
      if (uri !== keep && !doc.current) this.stop(uri, doc, 'stopped for another document');
    }
  }
}

/** "the marginals … were stopped", "the diagnosis … was stopped". */
function stoppedVerb(request: PanelRequest): string {
  return request.kind === 'diagnosis' ? 'was' : 'were';
}

function memoryMessage(limits: Pick<Limits, 'memoryMb'>, work = 'marginals'): string {
  return `the ${work} needed more than ${limits.memoryMb} MB (setting bayes.run.memoryMb) and ${work === 'diagnosis' ? 'was' : 'were'} stopped`;
}
