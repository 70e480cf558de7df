/**
 * A small XML reader for the XML network formats (XMLBIF, GeNIe XDSL): elements with their
 * attributes, text and 1-based lines; skips the declaration, processing instructions, comments
 * and a DOCTYPE with its internal subset (JavaBayes writes the XMLBIF DTD into every file);
 * keeps CDATA as text; decodes the five predefined entities and character references. Not a
 * validating parser: what it cannot read is a NetworkSyntaxError on the line where it stopped.
 */
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import { NetworkSyntaxError, readerWork, requireDeclarationsWithin } from './networkText.js';

export interface XmlElement {
  /** The tag name as written. */
  name: string;
  attributes: ReadonlyMap<string, string>;
  children: readonly XmlElement[];
  /** The element's own text (between its child elements), entities decoded. */
  text: string;
  line: number;
}

/** Shared by the elements that have none (most of them): a million `<P/>` need no million maps. */
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();
const NO_CHILDREN: readonly XmlElement[] = Object.freeze([]);

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;

/** Parses a document, keeping at most `budgets.maxDeclarations` elements (counted before each is kept). */
export function parseXml(src: string, budgets: Budgets = DEFAULT_BUDGETS): XmlElement {
  return new XmlReader(src, budgets).document();
}

/** The element's children with this tag name, compared without regard to case. */
export function childrenNamed(e: XmlElement, name: string): XmlElement[] {
  const lower = name.toLowerCase();
  return e.children.filter((c) => c.name.toLowerCase() === lower);
}

export function childNamed(e: XmlElement, name: string): XmlElement | undefined {
  return childrenNamed(e, name)[0];
}

/** An attribute by name, without regard to case. */
export function attribute(e: XmlElement, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of e.attributes) if (k.toLowerCase() === lower) return v;
  return undefined;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

class XmlReader {
  private pos = 0;
  private line = 1;
  private elements = 0;
  constructor(
    private readonly src: string,
    private readonly budgets: Budgets,
  ) {}

  document(): XmlElement {
    let root: XmlElement | undefined;
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.src.length) break;
      if (this.skipMarkup()) continue;
      if (this.src[this.pos] !== '<') {
        this.fail(`text outside the root element: '${this.src.slice(this.pos, this.pos + 20).trim()}'`);
      }
      if (root) this.fail('a second root element');
      root = this.element();
    }
    if (!root) this.fail('no XML element in the file');
    return root;
  }

  private fail(message: string): never {
    throw new NetworkSyntaxError(message, this.line);
  }

  private advanceTo(end: number): void {
    readerWork.steps += end - this.pos;
    for (let i = this.pos; i < end; i++) if (this.src.charCodeAt(i) === 10) this.line++;
    this.pos = end;
  }

  private skipSpace(): void {
    const s = this.src;
    let p = this.pos;
    while (p < s.length && s.charCodeAt(p) <= 32) p++;
    this.advanceTo(p);
  }

  /** Skips `<?…?>`, `<!--…-->` and `<!DOCTYPE … [ … ]>`; false when none starts here. */
  private skipMarkup(): boolean {
    const s = this.src;
    if (s.startsWith('<?', this.pos)) return this.skipPast('?>', 'an unclosed <?…?>');
    if (s.startsWith('<!--', this.pos)) return this.skipPast('-->', 'an unclosed comment');
    if (s.startsWith('<!DOCTYPE', this.pos) || s.startsWith('<!doctype', this.pos)) {
      let depth = 0;
      for (let p = this.pos + 2; p < s.length; p++) {
        const c = s[p];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '"' || c === "'") {
          const q = s.indexOf(c, p + 1);
          if (q < 0) break;
          p = q;
        } else if (c === '>' && depth <= 0) {
          this.advanceTo(p + 1);
          return true;
        }
      }
      this.fail('an unclosed <!DOCTYPE');
    }
    return false;
  }

  private skipPast(end: string, what: string): true {
    const at = this.src.indexOf(end, this.pos);
    if (at < 0) this.fail(what);
    this.advanceTo(at + end.length);
    return true;
  }

  private name(): string {
    const s = this.src;
    const start = this.pos;
    if (!NAME_START.test(s[this.pos] ?? '')) {
      this.fail(`expected a tag or attribute name, found '${s[this.pos] ?? 'end of file'}'`);
    }
    while (this.pos < s.length && NAME_CHAR.test(s[this.pos]!)) this.pos++;
    return s.slice(start, this.pos);
  }

  /** An element starting at `<`, iteratively (no recursion: deep nesting cannot overflow the stack). */
  private element(): XmlElement {
    const stack: XmlElement[] = [];
    const kids: XmlElement[][] = []; // the open elements' children, as they are read
    const text: string[][] = [];
    let root: XmlElement | undefined;
    do {
      const s = this.src;
      if (s.startsWith('</', this.pos)) {
        const line = this.line;
        this.pos += 2;
        const name = this.name();
        this.skipSpace();
        if (s[this.pos] !== '>') this.fail(`expected '>' after '</${name}'`);
        this.pos++;
        const open = stack.pop()!;
        open.children = kids.pop()!;
        if (open.name !== name) {
          throw new NetworkSyntaxError(`</${name}> closes <${open.name}> (opened on line ${open.line})`, line);
        }
        open.text = text.pop()!.join('');
        if (stack.length === 0) root = open;
      } else if (this.skipMarkup()) {
        // comment or processing instruction inside an element
      } else if (s.startsWith('<![CDATA[', this.pos)) {
        const end = s.indexOf(']]>', this.pos);
        if (end < 0) this.fail('an unclosed CDATA section');
        text[text.length - 1]!.push(s.slice(this.pos + 9, end));
        this.advanceTo(end + 3);
      } else if (s[this.pos] === '<') {
        const e = this.startTag();
        if (e.selfClosing) {
          if (stack.length === 0) root = e.element;
          else kids[kids.length - 1]!.push(e.element);
        } else {
          if (stack.length) kids[kids.length - 1]!.push(e.element);
          stack.push(e.element);
          kids.push([]);
          text.push([]);
        }
      } else {
        let end = s.indexOf('<', this.pos);
        if (end < 0) end = s.length;
        const line = this.line;
        const raw = s.slice(this.pos, end);
        this.advanceTo(end);
        text[text.length - 1]!.push(decodeEntities(raw, line));
      }
      const open = stack[stack.length - 1];
      if (this.pos >= s.length && open) this.fail(`<${open.name}> (line ${open.line}) is not closed`);
    } while (stack.length);
    return root!;
  }

  private startTag(): { element: XmlElement; selfClosing: boolean } {
    const line = this.line;
    requireDeclarationsWithin('the file', ++this.elements, 'XML elements', line, this.budgets);
    this.pos++;
    const name = this.name();
    let attributes: Map<string, string> | undefined;
    for (;;) {
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === '>' || (c === '/' && this.src[this.pos + 1] === '>')) {
        this.pos += c === '>' ? 1 : 2;
        const element = { name, attributes: attributes ?? NO_ATTRIBUTES, children: NO_CHILDREN, text: '', line };
        return { element, selfClosing: c === '/' };
      }
      if (c === undefined) this.fail(`<${name}> is not closed with '>'`);
      const key = this.name();
      this.skipSpace();
      if (this.src[this.pos] !== '=') this.fail(`expected '=' after attribute '${key}'`);
      this.pos++;
      this.skipSpace();
      const quote = this.src[this.pos];
      if (quote !== '"' && quote !== "'") this.fail(`attribute '${key}' needs a quoted value`);
      const end = this.src.indexOf(quote, this.pos + 1);
      if (end < 0) this.fail(`unclosed value of attribute '${key}'`);
      const valueLine = this.line;
      const raw = this.src.slice(this.pos + 1, end);
      this.advanceTo(end + 1);
      attributes ??= new Map();
      attributes.set(key, decodeEntities(raw, valueLine));
    }
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the references of a text or attribute value that starts on `line`. The line of a bad
 * reference is counted only when there is one to report: counting it for every reference (from
 * the start of the text) made 200,000 references cost 10^10 steps.
 */
function decodeEntities(raw: string, line: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;\s&]*);?/g, (all: string, body: string, offset: number) => {
    readerWork.steps++;
    const fail = (message: string): never => {
      let at = line;
      for (let i = raw.indexOf('\n'); i >= 0 && i < offset; i = raw.indexOf('\n', i + 1)) at++;
      throw new NetworkSyntaxError(message, at);
    };
    if (!all.endsWith(';')) fail(`'&' must start an entity such as &amp;`);
    if (Object.hasOwn(ENTITIES, body)) return ENTITIES[body]!;
    const code = /^#x[0-9a-f]+$/i.test(body)
      ? parseInt(body.slice(2), 16)
      : /^#[0-9]+$/.test(body)
        ? parseInt(body.slice(1), 10)
        : NaN;
    if (Number.isNaN(code) || code > 0x10ffff) fail(`unknown entity '&${body};'`);
    return String.fromCodePoint(code);
  });
}
