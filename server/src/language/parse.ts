/**
 * Text → AST with syntax diagnostics. Each statement is parsed on its own (see `chunks.ts`).
 * When a statement fails, the broken line is dropped and the statement parsed again, so one
 * bad row of a table costs that row only: one diagnostic on the broken line, the rest intact.
 */
import { EOF, type ILexingError, type IRecognitionException, type IToken } from 'chevrotain';
import type * as A from './ast.js';
import type { Diagnostic, Range } from './diagnostics.js';
import {
  Comma,
  DocComment,
  Identifier,
  Kw,
  LCurly,
  Minus,
  NumberLit,
  Percent,
  Question,
  Slash,
  StringLit,
} from './tokens.js';
import { bayesParser, tokenEnd, tokenRange } from './parser.js';
import { selfContained, StatementSplitter, unclosedOpener, type Chunk, type MisspeltKeyword } from './chunks.js';
import { deeperToken, lastExpectation } from './parseErrors.js';
import { documentRange } from './lines.js';
import { fastDataDecl, scannedDataDecl } from './dataBlock.js';
import { lexAroundEach, scanDataBlocks, type ScannedBlocks } from './dataScan.js';
import { MAX_NESTING, nestingDiagnostic, tooDeep } from './nesting.js';

export interface ParseOutput {
  ast: A.BayesFile;
  diagnostics: Diagnostic[];
  /**
   * The line of the last token of each top-level statement: past its range when recovery
   * dropped trailing lines. Incremental re-parsing cuts the text at these lines.
   */
  lastLines: number[];
  /** Whether the last statement leaves a bracket open (the next statement keyword must then be indented no deeper to
   * start one). */
  openAtEnd: boolean;
  /** More than MAX_SYNTAX_DIAGNOSTICS were found (the last says the rest are not listed), or more than MAX_STATEMENTS
   * statements (the rest are not read): the output depends on the whole text. */
  capped?: boolean;
}

/**
 * Syntax diagnostics listed per parse. A model of 8 MB can hold 4,000,000 lines with a stray
 * character each: listing them all took 53 s and 1.2 GB to parse (3.7 GB in `bayes check`), and
 * an editor shows no more than a few hundred. The rest are counted in one last diagnostic.
 */
export const MAX_SYNTAX_DIAGNOSTICS = 10_000;

/**
 * Statements read per model. Each takes about 1 KB parsed: the 1,100,000 one-line tables an 8 MB
 * model can hold took 19 s and 0.9 GB to parse, and 2.2 GB to check. Data rows are not
 * statements (a data block is one), nor are a table's rows.
 */
export const MAX_STATEMENTS = 200_000;

function tooManyStatements(range: Range): Diagnostic {
  const limit = MAX_STATEMENTS.toLocaleString('en-US');
  return {
    severity: 'error',
    code: 'model-too-large',
    message: `this model has more than ${limit} statements: this one and the rest are not read (keep data in data blocks or CSV files)`,
    range,
  };
}

/** Lines a statement may lose to recovery before it is given up on. */
const MAX_DROPPED_LINES = 20;

/**
 * Models larger than this are not parsed: parsing takes about 1 KB of memory and 7 µs a
 * hypothesis or table entry, so a 200 MB file listing 10^7 hypotheses would take gigabytes.
 * Data belongs in CSV files, which are read streaming.
 */
export const MAX_MODEL_CHARS = 8 * 2 ** 20;

export function parse(text: string): ParseOutput {
  if (text.length > MAX_MODEL_CHARS) return tooLarge(text);
  return parseRegion(text, 0, documentRange(text));
}

/** An empty model with one diagnostic on its first line. */
function tooLarge(text: string): ParseOutput {
  const range = documentRange(text);
  const firstLine = { start: range.start, end: { line: 0, character: Math.max(0, text.indexOf('\n')) } };
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  const message =
    `this model is ${mb(text.length)} MB, over the ${mb(MAX_MODEL_CHARS)} MB a model may have: ` +
    'it is not parsed (keep large data in CSV files: data T from "t.csv")';
  return {
    ast: { kind: 'file', statements: [], range },
    diagnostics: [{ severity: 'error', code: 'model-too-large', message, range: firstLine }],
    lastLines: [],
    openAtEnd: false,
  };
}

/**
 * Parses `text` as the lines of a document that start at `firstLine` (every range is in the
 * document's lines), for re-parsing the statements an edit touched (see `incremental.ts`).
 * Tokens never span lines (block comments aside, which the caller rules out), so lexing from
 * a line start yields the same tokens as lexing the whole document.
 */
export function parseRegion(text: string, firstLine: number, range: Range, scan = true): ParseOutput {
  // Inline data bodies are scanned here, and the lexer skips them (see `dataScan.ts`).
  const blocks: ScannedBlocks = scan ? scanDataBlocks(text, firstLine) : new Map();
  const diagnostics: Diagnostic[] = [];
  const docs = new Map<number, string>();
  const file: A.BayesFile = { kind: 'file', statements: [], range };
  const lastLines: number[] = [];
  // Open networks, innermost last; `undefined` stands for a network whose header did not parse:
  // its `}` still closes it, and its statements stay at the top level.
  const open: (A.NetworkDecl | undefined)[] = [];
  const container = () => {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]) return open[i]!.statements;
    return file.statements;
  };
  bayesParser().text = text;
  let scannedUsed = 0;
  let skipped = 0; // networks open inside one nested too deep: their statements are not read
  let statements = 0,
    openPastLimit = 0;
  let tooMany: Diagnostic | undefined;
  let last: Chunk | undefined;
  // Each statement is parsed as soon as the lexer has read it (see `lex`).
  const statement = (chunk: Chunk): void => {
    last = chunk;
    const tokens = chunk.tokens;
    const lastLine = tokens[tokens.length - 1].startLine! - 1;
    if (open.length > 0 && open[0]) lastLines[lastLines.length - 1] = lastLine; // inside a top-level network
    if (skipped > 0) {
      if (chunk.kind === 'networkOpen') skipped++;
      else if (chunk.kind === 'networkClose') skipped--;
      else if (blocks.size > 0 && scannedDataDecl(tokens, blocks)) scannedUsed++;
      return;
    }
    // Past MAX_STATEMENTS nothing more is read; the networks open before still take their `}`.
    if (tooMany || (chunk.kind !== 'networkClose' && ++statements > MAX_STATEMENTS)) {
      tooMany ??= tooManyStatements(tokenRange(tokens[0], tokens[tokens.length - 1]));
      if (chunk.kind === 'networkOpen') openPastLimit++;
      else if (chunk.kind === 'networkClose' && openPastLimit > 0) openPastLimit--;
      else if (chunk.kind === 'networkClose') {
        const network = open.pop();
        if (network) network.range = { start: network.range.start, end: tokenRange(tokens[0]).end };
      } else if (blocks.size > 0 && scannedDataDecl(tokens, blocks)) scannedUsed++;
      return;
    }
    if (chunk.kind === 'networkOpen' && open.length >= MAX_NESTING) {
      diagnostics.push(nestingDiagnostic(tokenRange(tokens[0], tokens[tokens.length - 1]), 'networks nested'));
      skipped = 1;
      return;
    }
    if (chunk.kind === 'networkClose') {
      const brace = tokenRange(tokens[0]);
      if (open.length === 0) {
        diagnostics.push(syntaxError("unexpected '}': there is no open network or block to close", brace));
      } else {
        const network = open.pop();
        if (network) network.range = { start: network.range.start, end: brace.end };
      }
      return;
    }
    const scanned = chunk.kind === 'statement' ? scannedDataDecl(tokens, blocks) : undefined;
    if (scanned) scannedUsed++;
    const deep = scanned ? undefined : tooDeep(tokens, open.length);
    const { statement, errors } = scanned
      ? { statement: scanned, errors: [] }
      : deep
        ? { statement: errorStatement(tokens), errors: [deep] }
        : parseChunk(chunk);
    diagnostics.push(...errors);
    const doc = docFor(docs, statement.range.start.line);
    if (doc !== undefined) statement.doc = doc;
    if (container() === file.statements) lastLines.push(lastLine);
    container().push(statement);
    if (chunk.kind === 'networkOpen') open.push(statement.kind === 'network' ? statement : undefined);
  };
  const retyped: MisspeltKeyword[] = [];
  const splitter = new StatementSplitter(statement, retyped);
  const lexErrors = lexAroundEach(text, blocks, (token) => {
    token.startLine! += firstLine;
    if (token.tokenType === DocComment) docs.set(token.startLine! - 1, docText(token));
    else splitter.push(token);
  });
  splitter.end();
  // A scanned body that did not end up as a `data` statement of its own (its header was inside
  // an open bracket, or more followed its `}`) was skipped for nothing: parse without scanning.
  if (scannedUsed !== blocks.size) return parseRegion(text, firstLine, range, false);
  for (const network of open) {
    if (network)
      diagnostics.push(
        syntaxError(
          `network '${network.name.text}' is missing its closing '}'`,
          network.name.range,
          'unclosed-network',
        ),
      );
  }
  const openAtEnd = last?.kind === 'statement' && last.unclosed;
  if (tooMany) diagnostics.push(tooMany);
  for (const e of lexErrors) if (e.line !== undefined) e.line += firstLine;
  // Lexical errors come in text order: those past the first MAX_SYNTAX_DIAGNOSTICS + 1 lines that
  // have one cannot be listed, so no diagnostic is made for them.
  let lexical = 0,
    lexLines = 0;
  for (let line = -1; lexical < lexErrors.length; lexical++) {
    if (lexErrors[lexical]!.line !== line) lexLines++;
    if (lexLines > MAX_SYNTAX_DIAGNOSTICS + 1) break;
    line = lexErrors[lexical]!.line!;
  }
  // In the order lexing, then keyword spelling, then parsing found them (`onePerLine` keeps the first of a line).
  const found = [
    ...lexErrors.slice(0, lexical).map((e) => lexDiagnostic(text, e)),
    ...retyped.map(misspeltDiagnostic),
    ...diagnostics,
  ];
  const kept = onePerLine(found);
  if (kept.length <= MAX_SYNTAX_DIAGNOSTICS)
    return { ast: file, diagnostics: kept, lastLines, openAtEnd, ...(tooMany ? { capped: true } : {}) };
  const first = kept[MAX_SYNTAX_DIAGNOSTICS]!;
  kept.length = MAX_SYNTAX_DIAGNOSTICS;
  kept.push({
    severity: 'error',
    code: first.code,
    message: `${first.message}; the syntax errors from this line on are not listed (over ${MAX_SYNTAX_DIAGNOSTICS.toLocaleString('en-US')})`,
    range: first.range,
  });
  return { ast: file, diagnostics: kept, lastLines, openAtEnd, capped: true };
}

function misspeltDiagnostic(r: MisspeltKeyword): Diagnostic {
  return {
    severity: 'error',
    code: 'syntax-error',
    range: tokenRange(r.token),
    data: { suggestion: r.keyword },
    message: `unknown statement '${r.image}': did you mean '${r.keyword}'?`,
  };
}

type Attempt =
  | { statement: A.Statement; error?: undefined }
  | { statement?: undefined; error: IRecognitionException; expected: string };

function attempt(chunk: Chunk, tokens: IToken[]): Attempt {
  const parser = bayesParser();
  parser.input = tokens;
  if (chunk.kind === 'networkOpen') {
    const name = parser.networkHeader();
    const errors = parser.errors; // the getter copies: read it once
    if (errors.length > 0) return { error: errors[0], expected: lastExpectation.text };
    return {
      statement: { kind: 'network', name, statements: [], range: tokenRange(tokens[0], tokens[tokens.length - 1]) },
    };
  }
  const statement = parser.statement();
  const errors = parser.errors;
  if (errors.length > 0) return { error: errors[0], expected: lastExpectation.text };
  if (missingComparison(statement)) return { error: noComparison(tokens), expected: 'a comparison' };
  return { statement };
}

function missingComparison(statement: A.Statement): boolean {
  return statement.kind === 'expectStatement' && !statement.comparison;
}

/** An error like Chevrotain's, for an `expect` without a comparison (found after parsing). */
function noComparison(tokens: IToken[]): IRecognitionException {
  const last = tokens[tokens.length - 1];
  return {
    name: 'MissingComparison',
    token: last,
    resyncedTokens: [],
    context: { ruleStack: [], ruleOccurrenceStack: [] },
    message: `an expectation needs a comparison after '${last.image}': = value, ≈ x ± t, <, <=, > or >=`,
  };
}

function parseChunk(chunk: Chunk): { statement: A.Statement; errors: Diagnostic[] } {
  const original = chunk.tokens;
  const data = chunk.kind === 'statement' ? fastDataDecl(original) : undefined;
  if (data) return { statement: data, errors: [] };
  const errors: Diagnostic[] = [];
  let tokens = original;
  let dropped = 0;
  const stray = chunk.kind === 'statement' ? strayDataLines(original) : undefined;
  if (stray) {
    ({ tokens, dropped } = stray);
    errors.push(...stray.diagnostics);
  }
  let result = attempt(chunk, tokens);
  for (; result.error && dropped < MAX_DROPPED_LINES; dropped++) {
    const next = bestRepair(chunk, tokens, result);
    if (!next) break;
    errors.push(next.diagnostic);
    tokens = next.tokens;
    result = next.result;
  }
  if (result.statement) {
    if (errors.length > 0) result.statement.recovered = true;
    return { statement: result.statement, errors };
  }
  errors.push(recognitionDiagnostic(result.error, tokens));
  return { statement: errorStatement(original), errors };
}

/** Tokens of a data body that are cells or their parts; `simple` ones are whole cells or commas. */
const dataParts = new Set([NumberLit, StringLit, Question, Comma, Minus, Slash, Percent]);
const simpleParts = new Set([NumberLit, StringLit, Question, Comma]);
const brackets = new Set(['{', '}', '(', ')', '[', ']']);
const isNameToken = (t: IToken) => t.tokenType === Identifier || t.tokenType.CATEGORIES?.includes(Identifier) === true;

/**
 * The lines of an inline data body that recovery would drop one at a time, dropped in one pass:
 * a row of plain cells, then a token no cell has (a stray `±`), and no bracket. Recovery would
 * re-parse the whole body once per such line (quadratic in a big body with a few strays); the
 * diagnostics are the ones it gives, "expected '}' after … but found …" on the stray token.
 */
function strayDataLines(
  tokens: IToken[],
): { tokens: IToken[]; dropped: number; diagnostics: Diagnostic[] } | undefined {
  if (tokens[0].tokenType !== Kw.data || tokens[2]?.tokenType !== LCurly) return undefined;
  const firstLine = tokens[0].startLine;
  const kept: IToken[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < tokens.length;) {
    let end = i;
    while (end < tokens.length && tokens[end].startLine === tokens[i].startLine) end++;
    let bad = -1;
    let plain = tokens[i].startLine !== firstLine;
    for (let j = i; j < end && plain; j++) {
      const t = tokens[j];
      if (brackets.has(t.image))
        plain = false; // dropping the line could unbalance the statement
      else if (bad >= 0 || isNameToken(t) || simpleParts.has(t.tokenType)) continue;
      else if (dataParts.has(t.tokenType))
        plain = false; // `-`, `/`, `%`: the grammar's to judge
      else bad = j;
    }
    if (plain && bad > i && diagnostics.length < MAX_DROPPED_LINES) {
      const message = `expected '}' after '${tokens[bad - 1].image}' but found '${tokens[bad].image}'`;
      diagnostics.push(syntaxError(message, tokenRange(tokens[bad])));
    } else {
      for (let j = i; j < end; j++) kept.push(tokens[j]);
    }
    i = end;
  }
  return diagnostics.length > 0 ? { tokens: kept, dropped: diagnostics.length, diagnostics } : undefined;
}

interface Repair {
  tokens: IToken[];
  diagnostic: Diagnostic;
  result: Attempt;
}

/**
 * Which line to blame for a parse error inside a multi-line statement: the line above the error
 * when the error is the first token of its line (that line ended too early or left a bracket
 * open), or the error's own line when it is self-contained. Each candidate is tried; the one
 * after which the statement parses — or at least parses further — wins. The statement's first
 * line is never dropped: it says what the statement is.
 */
function bestRepair(
  chunk: Chunk,
  tokens: IToken[],
  failed: Attempt & { error: IRecognitionException },
): Repair | undefined {
  const firstLine = tokens[0].startLine!;
  const at = failed.error.token;
  if (at.tokenType === EOF || Number.isNaN(at.startOffset)) return undefined;
  const index = tokens.indexOf(at);
  const without = (line: number) => tokens.filter((t) => t.startLine !== line);
  const candidates: { tokens: IToken[]; diagnostic: Diagnostic }[] = [];
  // The tokens of the line that starts at `tokens[i]` (a line's tokens are contiguous): a slice,
  // so the walk below stays linear.
  const lineAt = (i: number) => {
    let end = i;
    while (end < tokens.length && tokens[end].startLine === tokens[i].startLine) end++;
    return tokens.slice(i, end);
  };
  // The nearest line above the error that opens a bracket it never closes.
  for (let i = index - 1; i >= 0 && tokens[i].startLine !== firstLine; i--) {
    if (i > 0 && tokens[i - 1].startLine === tokens[i].startLine) continue;
    const opener = unclosedOpener(lineAt(i));
    if (opener && tokens[i].startLine !== at.startLine) {
      candidates.push({
        tokens: without(tokens[i].startLine!),
        diagnostic: syntaxError(`'${opener.image}' is not closed on this line`, tokenRange(opener)),
      });
      break;
    }
  }
  const previous = tokens[index - 1];
  if (
    previous &&
    previous.startLine! < at.startLine! &&
    previous.startLine !== firstLine &&
    selfContained(tokens, previous.startLine!)
  ) {
    const diagnostic = syntaxError(
      `this line is incomplete: expected ${failed.expected} after '${previous.image}'`,
      tokenRange(previous),
    );
    candidates.push({ tokens: without(previous.startLine!), diagnostic });
  }
  if (at.startLine !== firstLine && selfContained(tokens, at.startLine!)) {
    candidates.push({ tokens: without(at.startLine!), diagnostic: recognitionDiagnostic(failed.error, tokens) });
  }
  let best: Repair | undefined;
  for (const candidate of candidates) {
    const result = attempt(chunk, candidate.tokens);
    if (result.statement) return { ...candidate, result };
    if (!best || progress(result, candidate.tokens) > progress(best.result, best.tokens))
      best = { ...candidate, result };
  }
  return best && progress(best.result, best.tokens) > at.startOffset ? best : undefined;
}

/** How far a failed attempt got: the offset of its error (the chunk's end for end-of-statement errors). */
function progress(result: Attempt, tokens: IToken[]): number {
  if (!result.error) return Infinity;
  const offset = result.error.token.startOffset;
  return Number.isNaN(offset) ? tokenEnd(tokens[tokens.length - 1]) : offset;
}

function offendingToken(error: IRecognitionException, tokens: IToken[]): IToken {
  const token = deeperToken.get(error.token) ?? error.token;
  return token.tokenType === EOF || Number.isNaN(token.startOffset) ? tokens[tokens.length - 1] : token;
}

function recognitionDiagnostic(error: IRecognitionException, tokens: IToken[]): Diagnostic {
  return syntaxError(error.message, tokenRange(offendingToken(error, tokens)));
}

function syntaxError(message: string, range: Range, code = 'syntax-error'): Diagnostic {
  return { severity: 'error', message, range, code };
}

/** Keeps the keyword and declared names of a statement that did not parse (see `ErrorStmt`). */
function errorStatement(tokens: IToken[]): A.ErrorStmt {
  const keyword = tokens[0];
  const range = tokenRange(keyword, tokens[tokens.length - 1]);
  const declares = [Kw.variable, Kw.hypotheses, Kw.data, Kw.corpus, Kw.classifier, Kw.mixture, Kw.network].includes(
    keyword.tokenType,
  );
  const nameToken = keyword.tokenType === Kw.import ? tokens[2] : tokens[1];
  const isName = (t: IToken | undefined) =>
    t !== undefined && (t.tokenType === Identifier || t.tokenType.CATEGORIES?.includes(Identifier) === true);
  if (!(declares || keyword.tokenType === Kw.import) || !isName(nameToken))
    return { kind: 'error', keyword: keyword.image, range };
  const nameOf = (t: IToken): A.Name => ({ kind: 'name', text: t.image, range: tokenRange(t) });
  // `variable A, B, C …` declares every name before the domain.
  const others: A.Name[] = [];
  for (let i = 2; keyword.tokenType === Kw.variable && tokens[i]?.tokenType === Comma && isName(tokens[i + 1]); i += 2)
    others.push(nameOf(tokens[i + 1]));
  return {
    kind: 'error',
    keyword: keyword.image,
    name: nameOf(nameToken),
    ...(others.length ? { others } : {}),
    range,
  };
}

/**
 * Zero-width characters and direction controls (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069,
 * and U+FEFF except as the first character, a byte-order mark): no token holds them, so two
 * names cannot differ only by one. Said by code point, since the character itself shows as
 * nothing (or reorders the message around it).
 */
const INVISIBLE = /^[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]+$/;

function invisibleMessage(bad: string): string {
  const points = [...bad].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return `invisible character${points.length > 1 ? 's' : ''} ${points.join(' ')} (zero-width or text-direction control): not allowed in a model, so no two names differ only by one`;
}

function lexDiagnostic(text: string, e: ILexingError): Diagnostic {
  const line = (e.line ?? 1) - 1;
  const character = (e.column ?? 1) - 1;
  const bad = text.substr(e.offset, e.length);
  const invisible = INVISIBLE.test(bad);
  const message = bad.startsWith('"')
    ? 'this string is not closed: a string must end with " on the same line'
    : invisible
      ? invisibleMessage(bad)
      : `unexpected character${e.length > 1 ? 's' : ''} '${bad}'`;
  const newline = bad.search(/[\r\n]/);
  const length = newline >= 0 ? newline : e.length;
  return {
    severity: 'error',
    message,
    code: invisible ? 'invisible-character' : 'lexical-error',
    range: { start: { line, character }, end: { line, character: character + Math.max(1, length) } },
  };
}

/** One syntax diagnostic per line: the first explains, the rest would only repeat it. */
function onePerLine(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<number>();
  const kept: Diagnostic[] = [];
  for (const d of diagnostics.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  )) {
    if (seen.has(d.range.start.line)) continue;
    seen.add(d.range.start.line);
    kept.push(d);
  }
  return kept;
}

/** The text of a `///` comment. */
function docText(token: IToken): string {
  return token.image.slice(3).replace(/^ /, '');
}

/** The `///` lines directly above `line` (no blank line between), joined. */
function docFor(docs: Map<number, string>, line: number): string | undefined {
  const parts: string[] = [];
  for (let l = line - 1; docs.has(l); l--) parts.unshift(docs.get(l)!);
  return parts.length > 0 ? parts.join('\n') : undefined;
}
