/**
 * Driving VS Code's workbench (in code-server) the way a user does: quick open, command palette,
 * mouse hover, Problems panel. Selectors are VS Code's own DOM classes; each helper waits for
 * the UI it needs and fails with what it saw.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';

export const UI_TIMEOUT = 30_000;

export class Workbench {
  private shotCount = 0;

  constructor(
    readonly page: Page,
    private readonly shotDir: string,
  ) {
    mkdirSync(shotDir, { recursive: true });
  }

  /** Loads the workbench for `folder` and waits until it is interactive. */
  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer shows the workspace's files once the remote file system is connected.
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  /** A numbered PNG under the screenshot folder, so they sort in the order the steps ran. */
  async shot(name: string): Promise<string> {
    const file = join(this.shotDir, `${String(++this.shotCount).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Ctrl+P and the file's name, as a user opens a file; resolves when its editor shows `expectText`. */
  async openFile(name: string, expectText: string): Promise<void> {
    await this.quickPick('Control+P', name);
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: UI_TIMEOUT });
    await this.activeEditor().locator('.view-line', { hasText: expectText }).first().waitFor({ timeout: UI_TIMEOUT });
  }

  /** F1 and the command's title, picked from the command palette. */
  async runCommand(title: string): Promise<void> {
    await this.quickPick('F1', title);
  }

  /**
   * Opens the quick input with `key`, types `text` and clicks the first row showing it. The key
   * is pressed again when the widget does not appear: on a loaded machine the workbench can
   * still be moving focus (a closing hover or panel) and drop the first press.
   */
  private async quickPick(key: string, text: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget input');
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press(key);
      try {
        await widget.waitFor({ timeout: 5000 });
        break;
      } catch (e) {
        if (attempt === 3)
          throw new Error(`${key} did not open the quick input after ${attempt} presses`, { cause: e });
      }
    }
    await this.page.keyboard.type(text);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
    await row.waitFor({ timeout: UI_TIMEOUT });
    await row.click();
  }

  editorArea(): Locator {
    return this.page.locator('.editor-group-container.active');
  }

  activeEditor(): Locator {
    return this.editorArea().locator('.monaco-editor').first();
  }

  /** The rendered text of the visible lines (with inlay hints, which are part of the line's DOM). */
  async visibleLines(): Promise<string[]> {
    return (await this.activeEditor().locator('.view-lines .view-line').allTextContents()).map(clean);
  }

  /** Moves the mouse over `word` on the first visible line matching `line`, and returns the hover's text. */
  async hover(line: RegExp, word: string): Promise<string> {
    const box = await this.activeEditor()
      .locator('.view-lines')
      .evaluate(wordBox, { source: line.source, flags: line.flags, word });
    if (!box)
      throw new Error(
        `no visible line matches ${line} with '${word}' in it; lines: ${JSON.stringify(await this.visibleLines())}`,
      );
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = this.page
      .locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover:not(.hidden) .hover-contents')
      .first();
    await hover.waitFor({ timeout: UI_TIMEOUT });
    return clean(await hover.innerText());
  }

  /** Opens the Problems panel (Ctrl+Shift+M) and returns its rows. */
  async problems(): Promise<Locator> {
    await this.page.keyboard.press('Control+Shift+M');
    const panel = this.page.locator('.markers-panel');
    await panel.waitFor({ timeout: UI_TIMEOUT });
    return panel.locator('.monaco-list-row');
  }

  /** Hides the bottom panel (Ctrl+J toggles it) so the editor shows the whole model. */
  async closePanel(): Promise<void> {
    const panel = this.page.locator('#workbench\\.parts\\.panel');
    if (!(await panel.isVisible())) return;
    await this.page.keyboard.press('Control+J');
    await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  /** The first status bar item whose text matches. */
  statusItem(text: RegExp): Locator {
    return this.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: text }).first();
  }

  /** The (nested) webview frame whose document contains `selector`, waiting for it to appear. */
  async webviewFrame(selector: string, timeoutMs = UI_TIMEOUT): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const frame of this.page.frames()) {
        if (frame === this.page.mainFrame()) continue;
        if (
          await frame
            .locator(selector)
            .count()
            .catch(() => 0)
        )
          return frame;
      }
      await this.page.waitForTimeout(250);
    }
    throw new Error(
      `no webview frame holds '${selector}' after ${timeoutMs / 1000} s (frames: ${this.page
        .frames()
        .map((f) => f.url())
        .join(', ')})`,
    );
  }
}

/** Rendered editor text uses non-breaking spaces; compare with ordinary ones. */
export function clean(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** Runs in the page: the screen box of `word` within the first `.view-line` whose text matches. */
function wordBox(
  root: Element,
  arg: { source: string; flags: string; word: string },
): { x: number; y: number; width: number; height: number } | null {
  const pattern = new RegExp(arg.source, arg.flags);
  for (const line of Array.from(root.querySelectorAll('.view-line'))) {
    const text = (line.textContent ?? '').replace(/\u00a0/g, ' '); // clean(), inside the page
    if (!pattern.test(text)) continue;
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node.textContent ?? '').search(new RegExp(`\\b${arg.word}\\b`));
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + arg.word.length);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }
  }
  return null;
}
