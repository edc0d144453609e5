// A measurement, not a test: how long the GM screen takes to show a turn
// change with 50 combatants in real Chromium against a real server.
//   npx tsx e2e/render-bench.ts
// Prints, over 40 turn changes: (a) render = the delta frame arriving in the
// page -> the DOM updated (decode, fold, Preact render); (b) round trip = the
// N key pressed -> the DOM updated (includes the server deciding and storing);
// (c) the actions queries the page sent per turn change, and per log-only
// change (20 notes posted to the log), with the time to the last DOM change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { coreModule, countdownsModule } from '@tablekeeper/engine';
import { osr } from '@tablekeeper/rulesets';
import { moduleCatalog, startServer } from '@tablekeeper/server';
import { launchChromium } from './browser.ts';
import { ensureWebBuilt, webDist } from './web.ts';

const COMBATANTS = 50;
const TURNS = 40;

// Timestamps each delta frame before the app sees it, and the DOM mutations after it.
const PROBE = `
  window.__msgT = 0; window.__mutT = 0; window.__asked = 0;
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(u, p) { super(u, p); this.addEventListener('message', (e) => { if (String(e.data).startsWith('{"type":"delta"')) { window.__msgT = performance.now(); window.__mutT = 0; } }); }
    send(d) { if (String(d).includes('.actions')) window.__asked++; return super.send(d); }
  };
  new MutationObserver(() => { window.__mutT = performance.now(); })
    .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
`;

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms (n=${s.length})`;
}

ensureWebBuilt();
const dir = mkdtempSync(path.join(tmpdir(), 'tk-render-'));
const catalog = moduleCatalog([{ id: 'osr', name: 'OSR', modules: [coreModule, countdownsModule, ...osr.ruleset.modules] }]);
const server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'b.sqlite'), logger: pino({ level: 'silent' }), catalog, webDist });
const browser = await launchChromium();
try {
  const res = await fetch(`${server.url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', rulesetId: 'osr' }) });
  const { links, tableId } = (await res.json()) as { links: { gm: string }; tableId: string };
  const room = server.room(tableId)!;
  const combatants = Array.from({ length: COMBATANTS }, (_, i) => ({ id: `c${i}`, name: `Fighter ${i + 1}`, kind: i % 5 === 0 ? 'pc' : 'npc', score: 100 - i, stats: { hp: 10 + (i % 7), maxHp: 17 } }));
  const started = room.submit({ role: 'gm' }, 'bench-start', room.version, { type: 'encounter.start', combatants });
  if (!started.ok) throw new Error(JSON.stringify(started.error));

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 960 } })).newPage();
  await page.addInitScript(PROBE);
  await page.goto(links.gm);
  await page.locator('[data-testid=conn-status][data-status=open]').waitFor();
  await page.locator('[data-testid=combatant]').nth(COMBATANTS - 1).waitFor();

  const render: number[] = [];
  const roundTrip: number[] = [];
  for (let t = 0; t < TURNS; t++) {
    const before = await page.getByTestId('now-acting').textContent();
    const t0 = (await page.evaluate('performance.now()')) as number;
    await page.keyboard.press('n');
    await page.waitForFunction((b) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('[data-testid=now-acting]')?.textContent !== b, before);
    await page.waitForTimeout(30); // let any trailing mutation land
    const [msgT, mutT] = (await page.evaluate('[window.__msgT, window.__mutT]')) as [number, number];
    render.push(mutT - msgT);
    roundTrip.push(mutT - t0);
  }
  const askedTurns = (await page.evaluate('window.__asked')) as number;
  // Log-only changes (a note, as a dice roll or a chat line would be): the panel's answer cannot change.
  const NOTES = 20;
  const noteRender: number[] = [];
  await page.waitForTimeout(500);
  await page.evaluate('window.__asked = 0');
  for (let i = 0; i < NOTES; i++) {
    await page.evaluate('window.__msgT = 0; window.__mutT = 0');
    const r = room.submit({ role: 'gm' }, `bench-note-${i}`, room.version, { type: 'log.note', text: `note ${i}` });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    room.broadcast();
    await page.waitForFunction(`window.__msgT > 0`);
    await page.waitForTimeout(150); // a re-asked query would answer and re-render within this
    const [msgT, mutT] = (await page.evaluate('[window.__msgT, window.__mutT]')) as [number, number];
    // No DOM change at all counts as 0 (a log panel may show fewer lines than it holds).
    noteRender.push(mutT === 0 ? 0 : mutT - msgT);
  }
  const askedNotes = (await page.evaluate('window.__asked')) as number;
  console.log(`GM screen, ${COMBATANTS} combatants, turn change in Chromium (${process.platform}, node ${process.version}):`);
  console.log(`  actions queries sent: ${(askedTurns / TURNS).toFixed(2)} per turn change, ${(askedNotes / NOTES).toFixed(2)} per log note`);
  console.log(`  log note (frame in -> last DOM change within 150 ms): ${stats(noteRender)}`);
  console.log(`  render (frame in -> DOM updated):   ${stats(render)}`);
  console.log(`  round trip (N pressed -> DOM updated): ${stats(roundTrip)}`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
