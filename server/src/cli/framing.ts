/**
 * `bayes lsp --stdio` reads LSP messages framed by a Content-Length header. vscode-jsonrpc trusts
 * the header: a length 10 bytes off leaves it reading the next message's header as body (or a
 * body's end as header) and it never finds the frames again — every later request goes
 * unanswered, with nothing but parse errors, until the server is killed. This guard sits between
 * stdin and the reader and forwards only frames it has checked: a complete body followed by the
 * next header (or by nothing yet). A frame whose length does not end where a header begins is
 * dropped, with a line on stderr, and reading resumes at the next `Content-Length:` — the next
 * message is answered. A message whose declared body never arrives waits, as any partial read
 * does, and is dropped when the next header shows up in its place. (IPC, which VS Code uses,
 * carries whole messages: there is no framing to lose.)
 */
import { Transform, type TransformCallback } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n');
const NAMES = ['content-length:', 'content-type:'];
const SEARCH = [Buffer.from('Content-Length:'), Buffer.from('content-length:'), Buffer.from('CONTENT-LENGTH:')];
/** Larger bodies are refused: a forged length would otherwise buffer the input without end. */
export const MAX_MESSAGE_BYTES = 512 << 20;
/** A header block longer than this is not one. */
const MAX_HEADER_BYTES = 4096;

export class FrameGuard extends Transform {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes needed before the frame at the start can be judged. */
  private need = 0;
  /** Input is being dropped since the last frame forwarded (logged once). */
  private dropping = false;

  constructor(private readonly log: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // A large body arrives in many chunks: they are joined once it is all there, not at each one.
    if (this.size >= this.need) this.drain();
    done();
  }

  private drain(): void {
    let buffer: Buffer = Buffer.concat(this.chunks, this.size);
    for (;;) {
      this.need = 0;
      const headerEnd = buffer.indexOf(HEADER_END);
      if (headerEnd < 0) {
        if (buffer.length <= MAX_HEADER_BYTES) break;
        buffer = this.resync(buffer, 'a header without an end');
        continue;
      }
      const length = contentLength(buffer.subarray(0, headerEnd));
      if (length === undefined || length > MAX_MESSAGE_BYTES) {
        buffer = this.resync(
          buffer,
          length === undefined ? 'a header without a Content-Length' : 'a message too large',
        );
        continue;
      }
      const end = headerEnd + HEADER_END.length + length;
      if (buffer.length < end) {
        this.need = end;
        break;
      }
      const next = buffer.subarray(end, end + 16);
      const fits = next.length > 0 ? startsLikeHeader(next) : looksWhole(buffer.subarray(end - length, end));
      if (!fits) {
        buffer = this.resync(
          buffer,
          `a message whose Content-Length (${length}) does not end where the next header starts`,
        );
        continue;
      }
      this.push(buffer.subarray(0, end));
      this.dropping = false;
      buffer = buffer.subarray(end);
    }
    this.chunks = buffer.length > 0 ? [buffer] : [];
    this.size = buffer.length;
  }

  /** Drops the frame at the start, up to the next header (or all but a possible header's beginning). */
  private resync(buffer: Buffer, why: string): Buffer {
    const found = SEARCH.map((s) => buffer.indexOf(s, 1)).filter((i) => i > 0);
    const at = found.length > 0 ? Math.min(...found) : Math.max(1, buffer.length - SEARCH[0]!.length);
    if (!this.dropping) this.log(`bayes lsp: dropped input up to the next header: ${why}`);
    this.dropping = true;
    return buffer.subarray(at);
  }
}

/** The Content-Length of a header block, or undefined when it has none or is not a header block. */
function contentLength(block: Buffer): number | undefined {
  let length: number | undefined;
  for (const line of block.toString('ascii').split('\r\n')) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon < 0 || !/^[a-z-]+$/.test(name)) return undefined;
    if (name === 'content-length') {
      const value = line.slice(colon + 1).trim();
      if (!/^\d+$/.test(value)) return undefined;
      length = Number(value);
    }
  }
  return length;
}

/**
 * A body with nothing after it yet: whole when it reads as one JSON object or array from end to
 * end (a length too long takes the next header's first bytes; one too short ends mid-object). A
 * short body that happens to end in a brace is forwarded; vscode-jsonrpc reports it, and its
 * leftover bytes are dropped here when they come, so reading still resumes.
 */
function looksWhole(body: Buffer): boolean {
  const text = body.toString('latin1').trim();
  return /^[{[]/.test(text) && /[}\]]$/.test(text);
}

/** Whether bytes after a body begin a header (all of them a header name's beginning, when few have arrived). */
function startsLikeHeader(next: Buffer): boolean {
  if (next.length === 0) return true;
  const text = next.toString('ascii').toLowerCase();
  return NAMES.some((n) => (text.length >= n.length ? text.startsWith(n) : n.startsWith(text)));
}
