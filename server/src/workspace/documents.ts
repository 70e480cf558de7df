/**
 * The open documents and the parse of each one's current version. Every feature and every check
 * reads the parse from here, so a document version is parsed once, whatever asks for it.
 */
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fullParse, reparse, type ParseResult, type ParseState } from '../language/index.js';

export interface ParsedDocument {
  document: TextDocument;
  version: number;
  text: string;
  parse: ParseResult;
  /** What the next version's incremental parse starts from. */
  state: ParseState;
}

export class OpenDocuments {
  readonly documents = new TextDocuments(TextDocument);
  private readonly parsed = new Map<string, ParsedDocument>();

  /** The parse of the document's current version (parsed at most once per version). */
  parse(uri: string): ParsedDocument | undefined {
    const document = this.documents.get(uri);
    if (!document) return undefined;
    const known = this.parsed.get(uri);
    // TextDocument objects are updated in place: compare the version the parse was made at.
    if (known && known.version === document.version) return known;
    // Edits re-parse only the statements they touch (see language/incremental.ts). That consumes
    // the previous version's parse: its kept nodes move into this one.
    const text = document.getText();
    const started = performance.now();
    const state = known ? reparse(known.state, text) : fullParse(text);
    this.parseMs.set(uri, performance.now() - started);
    const entry = { document, version: document.version, text, parse: state.output, state };
    this.parsed.set(uri, entry);
    return entry;
  }

  /** How long the last parse of the document took. */
  private readonly parseMs = new Map<string, number>();

  /** Whether the current version is not parsed yet and parsing it is costly (the last parse took over `ms`). */
  costlyToParse(uri: string, ms: number): boolean {
    const document = this.documents.get(uri);
    return !!document && this.parsed.get(uri)?.version !== document.version && (this.parseMs.get(uri) ?? 0) > ms;
  }

  forget(uri: string): void {
    this.parsed.delete(uri);
    this.parseMs.delete(uri);
  }
}
