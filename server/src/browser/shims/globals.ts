// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the worker scope (no DOM lib here)
declare const self: any;

/** Node globals the shared server code touches, for the Web Worker (injected by esbuild.mjs). */
export const process = {
  cwd: () => '/',
  env: {} as Record<string, string | undefined>,
  platform: 'browser',
  on: (event: string, listener: (reason: unknown) => void) => {
    if (event === 'unhandledRejection')
      self.addEventListener('unhandledrejection', (e: { reason: unknown }) => listener(e.reason));
  },
  memoryUsage: Object.assign(() => ({ rss: 0, heapUsed: 0 }), { rss: () => 0 }),
};
export const Buffer = {
  allocUnsafe: (size: number): Uint8Array => new Uint8Array(size),
  alloc: (size: number): Uint8Array => new Uint8Array(size),
  from: (data: ArrayLike<number> | string): Uint8Array =>
    typeof data === 'string' ? new TextEncoder().encode(data) : Uint8Array.from(data),
  isBuffer: (x: unknown): boolean => x instanceof Uint8Array,
  concat: (parts: Uint8Array[]): Uint8Array => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  },
};
