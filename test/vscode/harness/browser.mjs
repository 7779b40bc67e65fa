// Debian's chromium driven by playwright-core, headless and without background traffic.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium as chromiumPath, hostDir } from './paths.mjs';
import { HANG_MS } from './patience.mjs';

const require = createRequire(join(hostDir, 'package.json'));
const { chromium } = require('playwright-core');

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
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

export async function openPage(browser, { width = 1400, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  // Every wait of a scenario is for an event; the deadline is there only to end a hang.
  page.setDefaultTimeout(HANG_MS);
  const consoleLines = [];
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  return { context, page, consoleLines };
}
