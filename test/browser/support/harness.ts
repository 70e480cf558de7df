/**
 * Loads the built webview in headless Chromium the way VS Code does: the panel's own HTML (same
 * CSP, nonce), served over HTTP from dist/, with `acquireVsCodeApi` stubbed to record what the
 * webview posts, and a theme's --vscode-* variables.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { makeNonce, panelHtml } from '../../../client/src/panelHtml.js';
import {
  RUN_RESULT_VERSION,
  type HostMessage,
  type WebviewMessage,
} from '../../../server/src/protocol/webviewMessages.js';
import type { RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot } from '../../support/shared.js';
import { launchChromium } from '../../support/chromium.js';
export { CHROMIUM } from '../../support/chromium.js';

const here = dirname(fileURLToPath(import.meta.url));
const TYPES: Record<string, string> = { js: 'text/javascript', css: 'text/css', html: 'text/html' };

// Records posted messages and keeps setState's value, as VS Code's webview API does.
const STUB = `window.__posted = []; window.__state = window.__restore;
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => window.__state, setState: (s) => { window.__state = s; } });`;

export type Theme = 'light' | 'dark';

/**
 * The panel harness of one test file: started before its tests when `ready` (Chromium is there;
 * the tests skip otherwise), with the screenshots folder made, and closed after them.
 */
export function panelHarness(ready: boolean): Pick<Harness, 'open'> {
  let harness: Harness | undefined;
  before(async () => {
    if (!ready) return;
    mkdirSync(join(repoRoot, 'test', 'screenshots'), { recursive: true });
    harness = await Harness.start();
  });
  after(async () => {
    await harness?.close();
  });
  return { open: (...args) => harness!.open(...args) };
}

export class Harness {
  private constructor(
    private readonly server: Server,
    private readonly browser: Browser,
    readonly origin: string,
  ) {}

  static async start(): Promise<Harness> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      try {
        const body =
          url.pathname === '/panel.html'
            ? page(`http://${req.headers.host}`)
            : url.pathname.startsWith('/dist/')
              ? readFileSync(join(repoRoot, 'dist', url.pathname.slice(6).replace(/\.\./g, '')))
              : url.pathname.startsWith('/theme-')
                ? readFileSync(join(here, url.pathname.slice(1).replace(/\.\./g, '')))
                : undefined;
        if (url.pathname === '/favicon.ico') {
          res.writeHead(204).end();
          return;
        }
        if (body === undefined) {
          res.writeHead(404).end();
          return;
        }
        res
          .writeHead(200, { 'content-type': TYPES[url.pathname.split('.').pop()!] ?? 'application/octet-stream' })
          .end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const browser = await launchChromium();
    return new Harness(server, browser, `http://127.0.0.1:${port}`);
  }

  /** A fresh panel page in the theme; CSP violations and page errors fail the caller's checks. */
  async open(
    theme: Theme,
    restore?: unknown,
    viewport: { width: number; height: number } = { width: 1200, height: 900 },
  ): Promise<PanelPage> {
    const context = await this.browser.newContext({ viewport, colorScheme: theme });
    // What VS Code's getState returns after a reload (set before the page's scripts run).
    if (restore !== undefined)
      await context.addInitScript((s) => {
        (window as unknown as { __restore: unknown }).__restore = s;
      }, restore);
    const p = await context.newPage();
    const problems: string[] = [];
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await p.goto(`${this.origin}/panel.html`);
    await p.addStyleTag({ url: `${this.origin}/theme-${theme}.css` });
    await p.evaluate((t) => document.body.classList.add(`vscode-${t}`), theme);
    await p.waitForFunction(() =>
      (window as unknown as { __posted: WebviewMessage[] }).__posted.some((m) => m.type === 'ready'),
    );
    return new PanelPage(p, problems);
  }

  async close(): Promise<void> {
    await this.browser.close();
    await new Promise((ok) => this.server.close(ok));
  }
}

function page(origin: string): string {
  return panelHtml({
    cspSource: origin,
    nonce: makeNonce(),
    scriptUri: `${origin}/dist/webview.js`,
    styleUri: `${origin}/dist/webview.css`,
    title: 'Bayes results',
    preamble: STUB,
  });
}

let axe: string | undefined;
/** axe-core's script, read once. */
const axeSource = () => (axe ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

export class PanelPage {
  constructor(
    readonly page: Page,
    readonly problems: string[],
  ) {}

  /**
   * axe-core's serious and critical accessibility violations on the page as it is (its id and the
   * first three elements), evaluated through the debugger protocol so the page's content security
   * policy does not apply.
   */
  async seriousViolations(): Promise<Array<{ id: string; impact: string; at: string[] }>> {
    await this.page.evaluate(axeSource());
    const violations = await this.page.evaluate(async () => {
      type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
      const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Violation[] }> } })
        .axe;
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        at: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      }));
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  /** Posts what the client posts on a finished run. */
  async show(result: RunResult, state: 'done' | 'failed' = 'done'): Promise<void> {
    await this.post({
      type: 'show',
      version: RUN_RESULT_VERSION,
      uri: `file:///models/${result.file}`,
      model: result.file.split('/').pop()!,
      state,
      cached: false,
      result,
    });
  }

  async post(message: HostMessage | Record<string, unknown>): Promise<void> {
    await this.page.evaluate((m) => window.postMessage(m, '*'), message);
    await this.page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
  }

  posted(): Promise<WebviewMessage[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted);
  }

  state(): Promise<unknown> {
    return this.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
  }

  /** A PNG under test/screenshots/; given `docsImage`, the same picture also replaces docs/images/<docsImage>.png
   * (the README's pictures are taken here, so they show the panel as it is built now). */
  async screenshot(name: string, docsImage?: string): Promise<void> {
    await this.page.screenshot({ path: join(repoRoot, 'test', 'screenshots', `${name}.png`), fullPage: true });
    if (docsImage) {
      await this.page.screenshot({ path: join(repoRoot, 'docs', 'images', `${docsImage}.png`), fullPage: true });
    }
  }

  close(): Promise<void> {
    return this.page.context().close();
  }
}
