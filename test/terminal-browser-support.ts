/**
 * Helpers for the web terminal's browser tests: Debian's `chromium` (never a downloaded build)
 * driven by playwright-core, a page that records console errors and stands in for the image
 * host (item images are the catalog's remote URLs; the test machine has no network), and
 * `eventually` for what the simulator produces in its own time.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export function chromiumPath(): string {
  const path = [process.env.CHROMIUM_PATH, ...CANDIDATES].find((p) => p && existsSync(p));
  if (!path) {
    throw new Error("chromium not found: install Debian's package (apt-get install -y chromium)");
  }
  return path;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** A 1×1 transparent PNG served in place of remote item images. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export interface WatchedPage {
  page: Page;
  errors: string[];
}

export async function openPage(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 800 },
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const origin = new URL(baseUrl).origin;
  await page.route(
    (url) => url.origin !== origin,
    (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
  );
  return { page, errors };
}

export async function eventually<T>(
  probe: () => Promise<T | null>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The same rule as src/web/format.ts, written out again so the test checks it. */
export function shownDollars(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

export function writeOffset(path: string, ms: number): void {
  writeFileSync(path, String(ms));
}
