/**
 * The `.bayes` tokens (the lexer is `lexer.ts`). Keywords are "soft": each is a category of
 * Identifier, so `data`, `normal`, `in`, `map` … still work as the names of states, columns or
 * hypotheses wherever the grammar expects a name. The lexer itself only knows Identifier and
 * then gives keyword images their keyword type — one map lookup per name instead of trying
 * every keyword pattern on every name.
 */
import { createToken, Lexer, type TokenType } from 'chevrotain';

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'a name' });

const keywordList: TokenType[] = [];
function keyword(word: string): TokenType {
  const t = createToken({ name: `kw_${word}`, pattern: Lexer.NA, categories: [Identifier], label: `'${word}'` });
  keywordList.push(t);
  return t;
}

export const Kw = {
  variable: keyword('variable'),
  bool: keyword('bool'),
  real: keyword('real'),
  hypotheses: keyword('hypotheses'),
  prior: keyword('prior'),
  noise: keyword('noise'),
  bits: keyword('bits'),
  tree: keyword('tree'),
  if: keyword('if'),
  else: keyword('else'),
  network: keyword('network'),
  import: keyword('import'),
  from: keyword('from'),
  data: keyword('data'),
  corpus: keyword('corpus'),
  label: keyword('label'),
  observe: keyword('observe'),
  learn: keyword('learn'),
  structure: keyword('structure'),
  by: keyword('by'),
  classifier: keyword('classifier'),
  mixture: keyword('mixture'),
  experts: keyword('experts'),
  of: keyword('of'),
  query: keyword('query'),
  expect: keyword('expect'),
  posterior: keyword('posterior'),
  map: keyword('map'),
  ml: keyword('ml'),
  mdl: keyword('mdl'),
  optimal: keyword('optimal'),
  gibbs: keyword('gibbs'),
  over: keyword('over'),
  in: keyword('in'),
  using: keyword('using'),
  given: keyword('given'),
  mpe: keyword('mpe'),
  sensitivity: keyword('sensitivity'),
  independent: keyword('independent'),
  classify: keyword('classify'),
  evaluate: keyword('evaluate'),
  split: keyword('split'),
  folds: keyword('folds'),
  on: keyword('on'),
  predict: keyword('predict'),
  validate: keyword('validate'),
  target: keyword('target'),
  mean: keyword('mean'),
  variance: keyword('variance'),
  mode: keyword('mode'),
  interval: keyword('interval'),
  bic: keyword('bic'),
  likelihood: keyword('likelihood'),
  learning_curve: keyword('learning_curve'),
  accuracy: keyword('accuracy'),
  size: keyword('size'),
  estimate: keyword('estimate'),
  strength: keyword('strength'),
  decision: keyword('decision'),
  utility: keyword('utility'),
  policy: keyword('policy'),
  eu: keyword('eu'),
  voi: keyword('voi'),
  for: keyword('for'),
  effect: keyword('effect'),
  do: keyword('do'),
  noisy_or: keyword('noisy_or'),
  noisy_max: keyword('noisy_max'),
  leak: keyword('leak'),
  P: keyword('P'),
} as const;

export const DocComment = createToken({ name: 'DocComment', pattern: /\/\/\/[^\n\r]*/, group: 'doc' });
const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({
  name: 'BlockComment',
  pattern: /\/\*[\s\S]*?\*\//,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n\f\v\u00a0]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
/**
 * U+FEFF is a byte-order mark only as a file's first character; anywhere else it is an invisible
 * character (an error: as a space it would split `y\uFEFFes` into two names that read as one).
 */
const ByteOrderMark = createToken({
  name: 'ByteOrderMark',
  pattern: {
    exec: (text: string, offset: number) => (offset === 0 && text.charCodeAt(0) === 0xfeff ? ['\ufeff'] : null),
  },
  start_chars_hint: ['\ufeff'],
  group: Lexer.SKIPPED,
  line_breaks: false,
});

export const StringLit = createToken({ name: 'String', pattern: /"(?:[^"\\\r\n]|\\.)*"/, label: 'a string' });
export const NumberLit = createToken({
  name: 'Number',
  pattern: /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/,
  label: 'a number',
});

export const LCurly = createToken({ name: 'LCurly', pattern: '{', label: "'{'" });
export const RCurly = createToken({ name: 'RCurly', pattern: '}', label: "'}'" });
export const LParen = createToken({ name: 'LParen', pattern: '(', label: "'('" });
export const RParen = createToken({ name: 'RParen', pattern: ')', label: "')'" });
export const LBracket = createToken({ name: 'LBracket', pattern: '[', label: "'['" });
export const RBracket = createToken({ name: 'RBracket', pattern: ']', label: "']'" });
export const Comma = createToken({ name: 'Comma', pattern: ',', label: "','" });
export const Colon = createToken({ name: 'Colon', pattern: ':', label: "':'" });
export const Pipe = createToken({ name: 'Pipe', pattern: '|', label: "'|'" });
export const Dot = createToken({ name: 'Dot', pattern: '.', label: "'.'" });
export const Question = createToken({ name: 'Question', pattern: '?', label: "'?'" });
export const Percent = createToken({ name: 'Percent', pattern: '%', label: "'%'" });
export const Slash = createToken({ name: 'Slash', pattern: '/', label: "'/'" });
export const Approx = createToken({ name: 'Approx', pattern: /≈|~=/, label: "'≈'" });
export const PlusMinus = createToken({ name: 'PlusMinus', pattern: /±|\+-/, label: "'±'" });
export const Tilde = createToken({ name: 'Tilde', pattern: '~', label: "'~'" });
export const Arrow = createToken({ name: 'Arrow', pattern: /->|→/, label: "'->'" });
export const Plus = createToken({ name: 'Plus', pattern: '+', label: "'+'" });
export const Minus = createToken({ name: 'Minus', pattern: '-', label: "'-'" });
export const LessEq = createToken({ name: 'LessEq', pattern: /<=|≤/, label: "'<='" });
export const GreaterEq = createToken({ name: 'GreaterEq', pattern: />=|≥/, label: "'>='" });
export const Less = createToken({ name: 'Less', pattern: '<', label: "'<'" });
export const Greater = createToken({ name: 'Greater', pattern: '>', label: "'>'" });
export const Equals = createToken({ name: 'Equals', pattern: '=', label: "'='" });

const lexedTokens: TokenType[] = [
  ByteOrderMark,
  WhiteSpace,
  DocComment,
  LineComment,
  BlockComment,
  StringLit,
  NumberLit,
  LCurly,
  RCurly,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Pipe,
  Dot,
  Question,
  Percent,
  Slash,
  Approx,
  PlusMinus,
  Tilde,
  Arrow,
  Plus,
  Minus,
  LessEq,
  GreaterEq,
  Less,
  Greater,
  Equals,
  Identifier,
];

/** Every token type the parser knows: the lexed ones and the keywords. */
export const allTokens: TokenType[] = [...lexedTokens, ...keywordList];

/** Keyword token types by their word. */
export const keywordByImage: ReadonlyMap<string, TokenType> = new Map(keywordList.map((t) => [t.name.slice(3), t]));

/** Keywords that begin a statement anywhere a line starts (see `chunks.ts`). */
export const statementKeywords: ReadonlySet<TokenType> = new Set([
  Kw.variable,
  Kw.hypotheses,
  Kw.network,
  Kw.import,
  Kw.data,
  Kw.corpus,
  Kw.observe,
  Kw.learn,
  Kw.classifier,
  Kw.mixture,
  Kw.query,
  Kw.expect,
  Kw.P,
  Kw.decision,
  Kw.utility,
]);

/**
 * Chevrotain's lexer for these tokens: the definition `lexer.ts` implements by hand, which a
 * test compares it with. No token spans lines (strings and doc comments end at the line; block
 * comments are skipped), so start positions suffice: `tokenRange` derives the end from the image.
 */
export function buildLexer(): Lexer {
  return new Lexer(lexedTokens, { positionTracking: 'onlyStart' });
}
