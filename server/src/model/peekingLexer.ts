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

  /** The next token from `pos`, advancing `pos` and `line`. */
  protected abstract scan(): T;
}
