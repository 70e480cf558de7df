/**
 * A line on standard error written now, synchronously: the Ctrl+C summary, which must not wait in
 * a stream that the interrupted work may have left mid-write. The one `node:fs` use of the CLI's
 * dispatcher lives here, beside the other file-system code.
 */
import { fstatSync, writeSync } from 'node:fs';

export function writeStandardErrorNow(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    process.stderr.write(text); // a non-blocking pipe that is full (EAGAIN)
  }
}

/**
 * A writer of standard output (fd 1) or error (fd 2) for the CLI that writes with writeSync while
 * it can: touching process.stdout on a pipe loads Node's net and stream modules, about 10 ms of
 * every command's start. Writes to pipes, files and terminals are synchronous on Linux either way,
 * so the order of what is printed is the same. A broken pipe calls `onBrokenPipe`; any other
 * failure (EAGAIN: a non-blocking pipe that is full) hands the rest, and every later text, to
 * `stream()`, which behaves as before.
 */
export function directWriter(
  fd: 1 | 2,
  stream: () => NodeJS.WritableStream,
  onBrokenPipe?: () => void,
): (text: string) => void {
  let streamed = false;
  return (text) => {
    if (streamed) {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE' && onBrokenPipe) return onBrokenPipe();
      streamed = true;
      stream().write(bytes.subarray(at));
    }
  };
}

/**
 * Whether fd 1 or 2 is a terminal, without creating process.stdout / process.stderr when it is a
 * pipe or a file (see directWriter): only a character device can be a terminal, and only then is
 * the stream asked.
 */
export function isTerminal(fd: 1 | 2, stream: () => { isTTY?: boolean }): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return stream().isTTY === true;
}
