/** One token of look-ahead over a hand-written scanner: the BIF and Hugin NET readers share it. */
export abstract class PeekingLexer<T> {
  protected pos = 0;
  protected line = 1;
  private peeked: T | undefined;
  constructor(protected readonly src: string) {}

  peek(): T {
    return (this.peeked ??= this.scan());
  }

  next(): T {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  /** Where the next token is scanned from (past the peeked one, if any). */
  get position(): number {
    return this.pos;
  }

  /** Moves to `pos` on line `line`, dropping any peeked token: lets a reader come back to text it skipped. */
  seek(pos: number, line: number): void {
    this.pos = pos;
    this.line = line;
    this.peeked = undefined;
  }

  /** Whether a token has been peeked: scanners that read `pos` directly need it not to be. */
  protected get hasPeeked(): boolean {
    return this.peeked !== undefined;
  }

  /** The next token from `pos`, advancing `pos` and `line`. */
  protected abstract scan(): T;
}
