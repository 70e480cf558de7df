/**
 * What the `bayes` command prints is read by a terminal: a name holding ESC sequences (clear the
 * screen, OSC 52 write the clipboard, retitle the window) or a carriage return must show as text,
 * never act. Every printer goes through `terminalIO` (cli.ts wraps the CliIO once), so each error
 * message and each table is covered, including commands added later.
 */
import type { CliIO } from './command.js';

/**
 * C0 controls (but tab and line feed) as `\x1b`; DEL, C1 controls and the bidirectional
 * overrides and isolates as `\u009b`: JSON.stringify leaves those raw, and `\u…` keeps `--json`
 * output valid JSON where `\x…` would not be. A backslash is left as it is (so JSON's own escapes
 * survive); a name spelled with a literal `\x1b` reads the same as an escaped one.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visible(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * The command's own terminal controls (the progress line's carriage return and erase, colours)
 * travel through `terminalIO` as tokens: a private-use character, a nonce drawn once per process
 * and the control's number. A name in a file cannot forge a token whose nonce it cannot know, so
 * the only controls that reach the terminal are the ones the command wrote with `control`.
 */
let nonce: string | undefined;
let token: RegExp | undefined;
const controls: string[] = [];

/**
 * Drawn at the first control (Web Crypto's generator, global in Node: node:crypto is not loaded at
 * every command's start). Until then no text can hold a token to restore.
 */
function drawNonce(): string {
  if (nonce === undefined) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    token = new RegExp(`\uE000${nonce}(\\d+)\uE001`, 'g');
  }
  return nonce;
}

export function control(sequence: string): string {
  const n = drawNonce();
  let i = controls.indexOf(sequence);
  if (i < 0) i = controls.push(sequence) - 1;
  return `\uE000${n}${i}\uE001`;
}

/** What the terminal is sent for `text`: its controls made visible, the command's own restored. */
export function forTerminal(text: string): string {
  const shown = visible(text);
  return token ? shown.replace(token, (_m, i: string) => controls[Number(i)]!) : shown;
}

/** `io` with every text it prints made visible (but the controls the command wrote itself). */
export function terminalIO(io: CliIO): CliIO {
  const errNow = io.errNow && ((t: string) => io.errNow!(forTerminal(t)));
  return {
    ...io,
    out: (t) => io.out(forTerminal(t)),
    err: (t) => io.err(forTerminal(t)),
    ...(errNow ? { errNow } : {}),
  };
}
