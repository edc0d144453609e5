// One browser and one table server per e2e file: the real ruleset registry
// (every ruleset, as `npm start` serves them), a SQLite file in a temp dir,
// and the built web app.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser, BrowserContext } from 'playwright-core';
import { startServer, type RunningServer } from '@tablekeeper/server';
import { launchChromium } from './browser.ts';
import { ensureWebBuilt, webDist } from './web.ts';

export interface E2e {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Closes the given browser contexts, the browser and the server, and removes the database. */
  close(contexts?: readonly BrowserContext[]): Promise<void>;
}

export async function startE2e(name: string): Promise<E2e> {
  ensureWebBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), `tk-e2e-${name}-`));
  const server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, `${name}.sqlite`), logger: pino({ level: 'silent' }), webDist });
  const browser = await launchChromium();
  return {
    server,
    browser,
    async close(contexts = []) {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
