// Launches Debian's chromium through playwright-core (no browser downloads
// exist here). Flags keep it off the closed network and out of the sandbox,
// which root cannot use.
import { chromium, type Browser } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.resolve('test-results');
/**
 * The README's screenshots: every run saves them as test artifacts; with
 * UPDATE_SCREENSHOTS=1 they replace the committed copies in docs/screenshots.
 */
export const screenshotsDir = process.env['UPDATE_SCREENSHOTS'] === '1' ? path.resolve('docs/screenshots') : artifactsDir;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`chromium not found at ${chromiumPath}: run \`npm test\` (it installs Debian's chromium) or set CHROMIUM_PATH`);
  }
  mkdirSync(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}
