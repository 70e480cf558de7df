/** Debian's Chromium for the browser and editor tests (playwright-core never downloads one here). */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.BAYES_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, with the flags that stop Chromium reaching for hosts these machines cannot reach. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
