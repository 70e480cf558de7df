/**
 * `bayes lsp --stdio`'s frame guard: a Content-Length 10 bytes off (either way) drops that message
 * only, and the messages after it are read — whole or split into chunks of any size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameGuard } from '../../../server/src/cli/framing.js';

const frame = (body: string, delta = 0) =>
  Buffer.from(`Content-Length: ${Buffer.byteLength(body) + delta}\r\n\r\n${body}`, 'utf8');
const message = (id: number, text = 'x') => JSON.stringify({ jsonrpc: '2.0', id, method: 'm', params: { text } });

/** What the guard forwards, as the bodies vscode-jsonrpc would read, and what it logged. */
async function through(input: Buffer, chunk: number): Promise<{ bodies: string[]; log: string[] }> {
  const log: string[] = [];
  const guard = new FrameGuard((line) => log.push(line));
  const out: Buffer[] = [];
  guard.on('data', (b: Buffer) => out.push(b));
  for (let i = 0; i < input.length; i += chunk) guard.write(input.subarray(i, i + chunk));
  guard.end();
  await new Promise((r) => guard.on('end', r));
  const all = Buffer.concat(out).toString('utf8');
  const bodies: string[] = [];
  for (let at = 0; at < all.length;) {
    const m = /^Content-Length: (\d+)\r\n\r\n/.exec(all.slice(at));
    assert.ok(m, `a frame at ${at}: ${JSON.stringify(all.slice(at, at + 40))}`);
    const start = Buffer.byteLength(all.slice(0, at)) + m[0].length;
    const body = Buffer.from(all, 'utf8')
      .subarray(start, start + Number(m[1]))
      .toString('utf8');
    bodies.push(body);
    at += m[0].length + body.length;
  }
  return { bodies, log };
}

for (const chunk of [1, 7, 64, 1 << 20]) {
  test(`chunks of ${chunk} bytes: good frames pass unchanged, 10 bytes too long or short are dropped alone`, async () => {
    const ok1 = message(1, 'é ünïcode');
    const ok2 = message(2);
    const ok3 = message(3);
    const input = Buffer.concat([frame(ok1), frame(message(10), +10), frame(ok2), frame(message(11), -10), frame(ok3)]);
    const { bodies, log } = await through(input, chunk);
    assert.deepEqual(bodies, [ok1, ok2, ok3]);
    assert.equal(log.length, 2, log.join('\n'));
    for (const line of log) assert.match(line, /dropped input up to the next header: a message whose Content-Length/);
  });
}

test('junk before a frame, a header without a length, a forged huge length: dropped, the next frame read', async () => {
  const ok = message(4);
  const input = Buffer.concat([
    Buffer.from('garbage\r\n\r\n'),
    Buffer.from('Content-Type: x\r\n\r\n{}'),
    Buffer.from(`Content-Length: ${2 ** 40}\r\n\r\n{}`),
    frame(ok),
  ]);
  const { bodies, log } = await through(input, 5);
  assert.deepEqual(bodies, [ok]);
  // One line per stretch dropped: from the junk to the frame read next.
  assert.equal(log.length, 1, log.join('\n'));
});

test('a large message split into many chunks is joined once (not at every chunk)', async () => {
  const big = message(5, 'y'.repeat(5 << 20));
  const { bodies } = await through(Buffer.concat([frame(big), frame(message(6))]), 16 << 10);
  assert.equal(bodies.length, 2);
  assert.equal(bodies[0], big);
});
