/**
 * A line on standard error written now, synchronously: the Ctrl+C summary, which must not wait in
 * a stream that the interrupted work may have left mid-write. The one `node:fs` use of the CLI's
 * dispatcher lives here, beside the other file-system code.
 */
import { writeSync } from 'node:fs';

export function writeStandardErrorNow(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    process.stderr.write(text); // a non-blocking pipe that is full (EAGAIN)
  }
}
