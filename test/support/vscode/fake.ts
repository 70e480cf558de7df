/**
 * Just enough of the `vscode` API for the results panel host, recording what it does: webview
 * panels with their HTML and posted messages, editor selections, saved files, the clipboard.
 */
export const ViewColumn = { One: 1, Two: 2, Beside: -2 } as const;
export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export const TextEditorRevealType = { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 } as const;

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static parse(s: string): Uri {
    const m = /^([a-z-]+):\/\/(.*)$/.exec(s)!;
    return new Uri(m[1]!, m[2]!);
  }
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    const segs = base.path.split('/');
    for (const p of parts)
      for (const s of p.split('/')) {
        if (s === '..') segs.pop();
        else if (s !== '.') segs.push(s);
      }
    return new Uri(base.scheme, segs.join('/'));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}
export class Selection extends Range {}

type Listener<T> = (e: T) => void;
class Emitter<T> {
  private listeners: Listener<T>[] = [];
  event = (l: Listener<T>, _this?: unknown, disposables?: { dispose(): void }[]) => {
    this.listeners.push(l);
    const d = {
      dispose: () => {
        this.listeners = this.listeners.filter((x) => x !== l);
      },
    };
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
}

export class FakeWebview {
  html = '';
  options: unknown;
  readonly cspSource = 'vscode-webview://fake';
  readonly posted: unknown[] = [];
  readonly received = new Emitter<unknown>();
  onDidReceiveMessage = this.received.event;
  asWebviewUri(u: Uri): Uri {
    return Uri.parse(`vscode-webview://fake${u.path}`);
  }
  async postMessage(m: unknown): Promise<boolean> {
    this.posted.push(m);
    return true;
  }
}

export class FakePanel {
  readonly webview = new FakeWebview();
  readonly disposed = new Emitter<void>();
  onDidDispose = this.disposed.event;
  reveals = 0;
  constructor(
    readonly viewType: string,
    readonly title: string,
    readonly options: unknown,
  ) {}
  reveal(): void {
    this.reveals++;
  }
  dispose(): void {
    this.disposed.fire();
  }
}

export class FakeDocument {
  constructor(
    readonly uri: Uri,
    private readonly text: string,
  ) {}
  getText(): string {
    return this.text;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  lineAt(line: number): { lineNumber: number; text: string } {
    return { lineNumber: line, text: this.text.split('\n')[line] ?? '' };
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before.at(-1)!.length);
  }
}

export const fake = {
  panels: [] as FakePanel[],
  documents: new Map<string, string>(),
  diagnostics: new Map<string, Array<{ severity: number }>>(),
  clipboard: '',
  saveTarget: undefined as Uri | undefined,
  written: new Map<string, Uint8Array>(),
  messages: [] as string[],
  /** Modal questions asked (message and detail), and the button the fake user presses. */
  modals: [] as Array<{ message: string; detail: string }>,
  modalAnswer: undefined as string | undefined,
  /** The options of every `window.showTextDocument` call. */
  shown: [] as Array<{ viewColumn: number; preserveFocus?: boolean }>,
  settings: {} as Record<string, unknown>,
  editor: undefined as
    { document: FakeDocument; selection?: Selection; revealed?: Range; viewColumn: number } | undefined,
};

export const window = {
  visibleTextEditors: [] as unknown[],
  createWebviewPanel(viewType: string, title: string, _column: unknown, options: unknown): FakePanel {
    const p = new FakePanel(viewType, title, options);
    fake.panels.push(p);
    return p;
  },
  async showTextDocument(document: FakeDocument, options: { viewColumn: number; preserveFocus?: boolean }) {
    fake.shown.push(options);
    fake.editor = {
      document,
      viewColumn: options.viewColumn,
      revealRange(r: Range) {
        fake.editor!.revealed = r;
      },
    } as typeof fake.editor & { revealRange(r: Range): void };
    return fake.editor;
  },
  async showSaveDialog(): Promise<Uri | undefined> {
    return fake.saveTarget;
  },
  async showInformationMessage(m: string): Promise<undefined> {
    fake.messages.push(m);
    return undefined;
  },
  async showWarningMessage(m: string, ...rest: unknown[]): Promise<string | undefined> {
    fake.messages.push(m);
    const options = rest[0] as { modal?: boolean; detail?: string } | undefined;
    if (options?.modal) {
      fake.modals.push({ message: m, detail: options.detail ?? '' });
      return fake.modalAnswer;
    }
    return undefined;
  },
};

/** Records text inserts; `workspace.applyEdit` applies them to the fake documents. */
export class WorkspaceEdit {
  readonly inserts: Array<{ uri: Uri; at: Position; text: string }> = [];
  insert(uri: Uri, at: Position, text: string): void {
    this.inserts.push({ uri, at, text });
  }
}

export const workspace = {
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    return new FakeDocument(uri, fake.documents.get(uri.toString()) ?? '');
  },
  fs: {
    async writeFile(uri: Uri, data: Uint8Array) {
      fake.written.set(uri.toString(), data);
    },
  },
  getConfiguration(_section: string) {
    return { get: <T>(key: string, fallback: T): T => (key in fake.settings ? (fake.settings[key] as T) : fallback) };
  },
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    for (const { uri, at, text } of edit.inserts) {
      const lines = (fake.documents.get(uri.toString()) ?? '').split('\n');
      const line = lines[at.line] ?? '';
      lines[at.line] = line.slice(0, at.character) + text + line.slice(at.character);
      fake.documents.set(uri.toString(), lines.join('\n'));
    }
    return true;
  },
};

export const languages = {
  getDiagnostics(uri: Uri) {
    return fake.diagnostics.get(uri.toString()) ?? [];
  },
};

export const env = {
  clipboard: {
    async writeText(t: string) {
      fake.clipboard = t;
    },
  },
};
