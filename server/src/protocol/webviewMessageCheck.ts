/**
 * The panel's messages to the extension, checked before the host acts on them: the webview runs
 * the page's script, and the host writes files, the clipboard and the model on its word. A message
 * of an unknown type, or whose fields are missing or of the wrong type, is dropped (the host logs
 * a line saying why); extra fields are ignored. Each WebviewMessage type has its rule here.
 */
import type { WebviewMessage } from './webviewMessages.js';

type Check = (m: Record<string, unknown>) => string | undefined;

const isString = (x: unknown): x is string => typeof x === 'string';
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const numbers = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === 'number' && Number.isFinite(v));
const position = (x: unknown) =>
  isRecord(x) &&
  Number.isInteger(x.line) &&
  Number.isInteger(x.character) &&
  (x.line as number) >= 0 &&
  (x.character as number) >= 0;

/** The first field that breaks its rule, as `name (what it must be)`, or undefined. */
function fields(
  m: Record<string, unknown>,
  rules: Record<string, [(x: unknown) => boolean, string]>,
): string | undefined {
  for (const [name, [ok, what]] of Object.entries(rules)) if (!ok(m[name])) return `${name} (${what})`;
  return undefined;
}

const optional = (ok: (x: unknown) => boolean) => (x: unknown) => x === undefined || ok(x);
const recordOf = (ok: (x: unknown) => boolean) => (x: unknown) => isRecord(x) && Object.values(x).every(ok);

const CHECKS: Record<WebviewMessage['type'], Check> = {
  ready: () => undefined,
  reveal: (m) =>
    fields(m, {
      network: [isString, 'a string'],
      variable: [isString, 'a string'],
      range: [optional((r) => isRecord(r) && position(r.start) && position(r.end)), 'a range'],
    }),
  save: (m) =>
    fields(m, {
      name: [isString, 'a string'],
      format: [(x) => x === 'svg' || x === 'png', "'svg' or 'png'"],
      data: [isString, 'a string'],
    }),
  copy: (m) => fields(m, { text: [isString, 'a string'] }),
  marginals: (m) =>
    fields(m, {
      id: [Number.isSafeInteger, 'an integer'],
      network: [isString, 'a string'],
      // Evidence restored from an older panel state may lack a kind: absent is none.
      evidence: [optional(recordOf(isString)), 'state names by variable'],
      likelihoods: [optional(recordOf(numbers)), 'numbers by variable'],
      soft: [optional(recordOf(numbers)), 'numbers by variable'],
    }),
  decisions: (m) =>
    fields(m, {
      id: [Number.isSafeInteger, 'an integer'],
      network: [isString, 'a string'],
      evidence: [recordOf(isString), 'state names by variable'],
    }),
  diagnosis: (m) =>
    fields(m, {
      id: [Number.isSafeInteger, 'an integer'],
      network: [isString, 'a string'],
      target: [isString, 'a string'],
      evidence: [recordOf(isString), 'state names by variable'],
    }),
  writeObserve: (m) =>
    fields(m, {
      network: [isString, 'a string'],
      lines: [(x) => Array.isArray(x) && x.every(isString), 'a list of strings'],
    }),
};

/** The message if it is one the host knows, well typed; else why it is not. */
export function checkWebviewMessage(m: unknown): { message: WebviewMessage } | { invalid: string } {
  if (!isRecord(m) || !isString(m.type)) return { invalid: 'not a message with a type' };
  if (!Object.hasOwn(CHECKS, m.type)) return { invalid: `unknown message type '${m.type.slice(0, 40)}'` };
  const wrong = CHECKS[m.type as WebviewMessage['type']](m);
  return wrong
    ? { invalid: `'${m.type}' message with a bad field: ${wrong}` }
    : { message: m as unknown as WebviewMessage };
}
