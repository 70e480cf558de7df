/**
 * Peers in long-lived child processes (scikit-learn, pomegranate, wink), so that their runs can
 * alternate with ours: load on a shared machine drifts, and alternating puts both sides under the
 * same drift (docs/TESTING). Plus the cold/warm summary every bench prints (warm: min / median / max).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface PeerProcess<Reply> {
  run: (request: unknown) => Promise<Reply>;
  stop: () => void;
}

/**
 * A peer process that answers "ready" once and then one JSON line per request line, or the reason
 * it is unavailable. A request still unanswered after `budgetMs` kills the process: the peer "did
 * not finish" rather than hanging the bench.
 */
export async function startPeer<Reply>(
  command: string,
  args: string[],
  init?: unknown,
  budgetMs = Infinity,
): Promise<PeerProcess<Reply> | string> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<undefined>((resolve) => child.on('close', () => resolve(undefined)));
  const next = async () =>
    (await Promise.race([lines.next().then((r) => (r.done ? undefined : r.value)), exited])) ??
    Promise.reject(new Error(stderr.trim().split('\n').pop() || `${command} exited`));
  child.on('error', () => {});
  if (init !== undefined) child.stdin.write(`${JSON.stringify(init)}\n`);
  try {
    await next();
  } catch (error) {
    return (error as Error).message;
  }
  // Each request's budget starts with it and ends with its answer: a timer left running would kill
  // the process during a later request.
  const withinBudget = async <T>(answer: Promise<T>): Promise<T> => {
    if (!Number.isFinite(budgetMs)) return answer;
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill();
        reject(new Error(`did not finish within ${budgetMs / 1000} s`));
      }, budgetMs);
    });
    try {
      return await Promise.race([answer, overrun]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    run: async (request) => {
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return JSON.parse((await withinBudget(next()))!) as Reply;
    },
    stop: () => child.stdin.end(),
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export interface ColdWarm {
  /** The first run: before the JIT or the peer's caches have seen the code. */
  cold: number;
  /** The median of the other runs, with their min and max. */
  warm: number;
  min: number;
  max: number;
}

export const coldWarm = (seconds: number[]): ColdWarm => {
  const warm = seconds.length > 1 ? seconds.slice(1) : seconds;
  return { cold: seconds[0]!, warm: median(warm), min: Math.min(...warm), max: Math.max(...warm) };
};

/** How many times faster ours is than the peer: first runs (cold) and warm medians. */
export const speedUp = (ours: ColdWarm, peer: ColdWarm) => ({
  cold: peer.cold / ours.cold,
  warm: peer.warm / ours.warm,
});

/** A goal line's figure: "N× (warm medians; cold M×)". */
export const speedUpText = (s: { cold: number; warm: number }) =>
  `${s.warm.toFixed(1)}× (warm medians; cold ${s.cold.toFixed(1)}×)`;

/** "median (min–max)" of the warm runs, in `unit` (ms: milliseconds, s: seconds). */
export const warmSpread = (t: ColdWarm, unit: 'ms' | 's', digits = unit === 'ms' ? 1 : 2) => {
  const f = (x: number) => (unit === 'ms' ? x * 1000 : x).toFixed(digits);
  return `${f(t.warm)} (${f(t.min)}–${f(t.max)}) ${unit}`;
};
