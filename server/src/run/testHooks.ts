/**
 * Test-only behaviour of the run worker, so protocol tests can make a run slow, crash or
 * exhaust memory without a slow model. Active only when BAYES_TEST_HOOKS=1 is in the
 * environment of the server process; a first line `//! test: spin 3000` (busy for 3 s, never
 * yielding, as a runaway engine loop would), `//! test: crash` or `//! test: oom` selects it;
 * `%! test: …` in a Hugin NET file, whose comments start with `%`. `bayes run` takes them too,
 * saying on standard error which hook began.
 */
export async function testHook(text: string, announce?: (line: string) => void): Promise<void> {
  if (process.env.BAYES_TEST_HOOKS !== '1') return;
  const m = /^(?:\/\/|%)! test: (spin|crash|oom)(?: (\d+))?/.exec(text);
  if (!m) return;
  // A test that interrupts the work learns here that it has begun (the CLI's `bayes run`).
  announce?.(`test hook: ${m[0].replace(/^\S+ test: /, '')}\n`);
  if (m[1] === 'spin') {
    const until = Date.now() + Number(m[2] ?? 1000);
    while (Date.now() < until) {
      /* deliberately not yielding: only terminate() can stop this */
    }
  } else if (m[1] === 'crash') {
    process.exit(3);
  } else {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(1e6).fill(hoard.length));
  }
}

/**
 * The marginals worker's hook: a network named `test_spin_3000` (or `test_crash`, `test_oom`)
 * behaves as `//! test: spin 3000` at each click, when BAYES_TEST_HOOKS=1.
 */
export function networkTestHook(name: string): Promise<void> {
  const m = /^test_(spin|crash|oom)(?:_(\d+))?$/.exec(name);
  return m ? testHook(`//! test: ${m[1]}${m[2] ? ` ${m[2]}` : ''}`) : Promise.resolve();
}
