/**
 * A small XML reader for the XML network formats (XMLBIF, GeNIe XDSL): elements with their
 * attributes, text and 1-based lines; skips the declaration, processing instructions, comments
 * and a DOCTYPE with its internal subset (JavaBayes writes the XMLBIF DTD into every file);
 * keeps CDATA as text; decodes the five predefined entities and character references. Not a
 * validating parser: what it cannot read is a NetworkSyntaxError on the line where it stopped.
 */
import { NetworkSyntaxError } from './networkText.js';

export interface XmlElement {
  /** The tag name as written. */
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own text (between its child elements), entities decoded. */
  text: string;
  line: number;
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;

export function parseXml(src: string): XmlElement {
  return new XmlReader(src).document();
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
  constructor(private readonly src: string) {}

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
          else stack[stack.length - 1]!.children.push(e.element);
        } else {
          if (stack.length) stack[stack.length - 1]!.children.push(e.element);
          stack.push(e.element);
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
    this.pos++;
    const name = this.name();
    const attributes = new Map<string, string>();
    for (;;) {
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === '>' || (c === '/' && this.src[this.pos + 1] === '>')) {
        this.pos += c === '>' ? 1 : 2;
        return { element: { name, attributes, children: [], text: '', line }, selfClosing: c === '/' };
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
      attributes.set(key, decodeEntities(raw, valueLine));
    }
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string, line: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;\s&]*);?/g, (all, body: string) => {
    const at = line + (raw.slice(0, raw.indexOf(all)).match(/\n/g)?.length ?? 0);
    if (!all.endsWith(';')) throw new NetworkSyntaxError(`'&' must start an entity such as &amp;`, at);
    if (Object.hasOwn(ENTITIES, body)) return ENTITIES[body]!;
    const code = /^#x[0-9a-f]+$/i.test(body)
      ? parseInt(body.slice(2), 16)
      : /^#[0-9]+$/.test(body)
        ? parseInt(body.slice(1), 10)
        : NaN;
    if (Number.isNaN(code) || code > 0x10ffff) throw new NetworkSyntaxError(`unknown entity '&${body};'`, at);
    return String.fromCodePoint(code);
  });
}
