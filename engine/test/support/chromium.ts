// Debian's Chromium driven by playwright-core, which downloads nothing: the browser is the system's
// (`apt-get install -y chromium`; `make test` installs it when missing). Playwright gives each launch
// a fresh temporary profile (its own --user-data-dir) and removes it when the browser closes; each
// user of a test gets a context of their own (their own cookies).

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** dist/test/support -> engine/test-reports/ui: screenshots for review. */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../../test-reports/ui/', import.meta.url));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; make test does it)`);
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}
