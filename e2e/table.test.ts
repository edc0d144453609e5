// The GM screen and the player view in real Chromium against a real table
// server (SQLite in a temp dir): create a table, invite a player who joins on a
// phone-sized screen, run turns, hide a countdown whose name never reaches the
// player (DOM or WebSocket frames), roll with odds, undo, and survive a reload
// and a server restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { coreModule, countdownsModule } from '@tablekeeper/engine';
import { osr, sheetSchemaFor } from '@tablekeeper/rulesets';
import { moduleCatalog, startServer, type RunningServer } from '@tablekeeper/server';
import { launchChromium, screenshotsDir } from './browser.ts';
import { ensureWebBuilt, horizontalOverflow, nowActing, recordFrames, watchErrors, webDist } from './web.ts';

const CANARY = 'CANARY-q7Zx-secret-plot';
const HIDDEN_FOE = 'CANARY-k2Wv-lurker';
const shots = screenshotsDir;

// The real OSR ruleset plus the countdowns module (no ruleset bundles countdowns yet).
// The OSR sheet's schema too: the party panel and the phone's "My sheet" ask for it (a 404 would be a console error).
const catalog = () => moduleCatalog([{ id: 'osr', name: 'OSR', modules: [coreModule, countdownsModule, ...osr.ruleset.modules], sheet: sheetSchemaFor('osr') }]);

/** Each browser step fails on its own after this long, naming the step, well before the test's timeout. */
const STEP_TIMEOUT = 25_000;

let dir = '';
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function start(port = 0): Promise<RunningServer> {
  return startServer({ port, host: '127.0.0.1', dbPath: path.join(dir, 'tables.sqlite'), logger: pino({ level: 'silent' }), catalog: catalog(), webDist });
}

const started = Date.now();
/** A timestamped line per section, so a slow or stuck run shows where it was. */
function mark(section: string): void {
  console.log(`[table e2e +${Date.now() - started} ms] ${section}`);
}

/** Waits that are not browser steps still fail on their own, saying what hung. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${STEP_TIMEOUT} ms`)), STEP_TIMEOUT);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function connected(page: Page): Promise<void> {
  await page.locator('[data-testid=conn-status][data-status=open]').waitFor();
}

beforeAll(async () => {
  ensureWebBuilt();
  mkdirSync(shots, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'tk-e2e-'));
  server = await start();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('GM screen and player view', () => {
  // One retry: under a fully loaded CI machine this long run has twice stalled past its timeout
  // without a step failing (cause not found yet); the step and phase limits now say where if it recurs.
  it('runs a table end to end without leaking a secret to the player', { retry: 1 }, async () => {
    // A retry after a stall during the restart starts from a listening server.
    if (!server.app.server.listening) server = await start();
    const gmCtx = await browser.newContext({ viewport: { width: 1440, height: 960 } });
    gmCtx.setDefaultTimeout(STEP_TIMEOUT);
    contexts.push(gmCtx);
    const gm = await gmCtx.newPage();
    const gmErrors = watchErrors(gm);

    // --- create a table from the landing page
    mark('create a table from the landing page');
    await gm.goto(server.url + '/');
    await gm.getByLabel('Table name').fill('Barrowmaze Friday');
    await gm.getByLabel('Rules').selectOption('osr');
    await gm.getByRole('button', { name: 'Create table' }).click();
    await gm.waitForURL(/#gm=/);
    await connected(gm);
    await expect.poll(() => gm.getByTestId('table-name').textContent()).toBe('Barrowmaze Friday');

    // --- invite a player and give the seat a character
    mark('invite a player and give the seat a char');
    await gm.getByPlaceholder('Player name').fill('Alice');
    await gm.getByRole('button', { name: 'Add player seat' }).click();
    const seatLink = await gm.getByTestId('seat-link').first().inputValue();
    expect(seatLink).toMatch(/#seat=[A-Za-z0-9_-]{22,}$/);
    await expect.poll(() => gm.locator('.qr svg').count()).toBe(1);
    await gm.getByLabel('Character name for Alice').fill('Brannoc');
    await gm.getByLabel('Hit points').fill('12');
    await gm.getByRole('button', { name: 'Add character' }).click();
    await gm.locator('.area-invite').getByText('Brannoc').waitFor();

    // --- countdowns: one public, one hidden whose name is the canary
    mark('countdowns');
    const cd = gm.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    await cd.getByLabel('Name', { exact: true }).fill('The bridge collapses');
    await cd.getByLabel('Start').first().fill('4');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    await cd.getByText('The bridge collapses', { exact: true }).waitFor();
    await cd.getByLabel('Name', { exact: true }).fill(CANARY);
    await cd.getByLabel('Players see').selectOption('hidden');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    await cd.getByText(CANARY, { exact: true }).waitFor();

    // --- an encounter: the PC, a goblin, and a hidden lurker
    mark('an encounter');
    const enc = gm.locator('.area-encounter');
    await enc.getByLabel('Character').selectOption({ label: 'Brannoc' });
    await enc.getByLabel('DEX').fill('15');
    await enc.getByRole('button', { name: 'Add to encounter' }).click();
    await enc.getByLabel('Name').fill('Goblin');
    await enc.getByLabel('Kind').selectOption('npc');
    await enc.getByLabel('DEX').fill('12');
    await enc.getByLabel('HP').fill('7');
    await enc.getByRole('button', { name: 'Add to encounter' }).click();
    await enc.getByLabel('Name').fill(HIDDEN_FOE);
    await enc.getByLabel('Kind').selectOption('npc');
    await enc.getByLabel('DEX').fill('9');
    await enc.getByLabel('hidden').check();
    await enc.getByRole('button', { name: 'Add to encounter' }).click();
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    await expect.poll(() => enc.getByTestId('combatant').count()).toBe(3);
    await expect.poll(() => nowActing(enc)).toBe('Now acting: Brannoc');

    // --- the player joins on a phone
    mark('the player joins on a phone');
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    phone.setDefaultTimeout(STEP_TIMEOUT);
    contexts.push(phone);
    const player = await phone.newPage();
    const frames = recordFrames(player);
    const playerErrors = watchErrors(player);
    await player.goto(seatLink);
    await connected(player);
    await player.getByTestId('my-character').getByText('Brannoc').waitFor();
    const order = player.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => order.getByTestId('combatant').allTextContents()).toEqual([expect.stringContaining('Brannoc'), expect.stringContaining('Goblin')]);
    await player.getByText('The bridge collapses', { exact: true }).waitFor();

    // --- on their turn the player gets the actions the economy can still pay for (osr.actions)
    mark('on their turn the player gets the action');
    const actions = player.getByRole('group', { name: 'Actions Brannoc can take now' });
    // Move opens a small form (feet, the way); its log line says how far (GM review: it spent silently).
    await actions.getByRole('button', { name: /^Move \(/ }).click();
    await player.getByTestId('action-form').getByRole('button', { name: 'Move', exact: true }).click();
    await player.getByRole('img', { name: 'movement: 0 of 1 left' }).waitFor();
    // 001: the active action trades down, so a second move is still on offer. The builder's Goblin has a sheet (its AC
    // the default 10, ADR 76), so Attack is on offer too, and the hidden foe is not among its targets.
    await expect.poll(() => actions.getByRole('button', { name: /^Move \(/ }).count()).toBe(1);
    expect(await actions.getByRole('button', { name: /^Quick action \(/ }).count()).toBe(1);
    await actions.getByRole('button', { name: /^Attack \(/ }).click();
    expect(await player.getByTestId('action-form').getByLabel(/Target/).locator('option').allTextContents()).toEqual(['Goblin']);

    // --- turns: N on the GM screen; the player's screen follows
    mark('turns');
    // The GM's screen has the player's move first: N sent on an older view would be refused, not resent (ADR 6).
    await gm.getByRole('img', { name: 'movement: 0 of 1 left' }).first().waitFor();
    await gm.locator('body').click({ position: { x: 5, y: 5 } });
    await gm.keyboard.press('n');
    await expect.poll(() => nowActing(player)).toBe('Now acting: Goblin');

    // --- the GM ticks the hidden countdown and the public one; the player sees only the public one move
    mark('the GM ticks the hidden countdown and th');
    await cd.getByRole('button', { name: `Tick ${CANARY} down by one` }).click();
    await cd.getByRole('button', { name: 'Tick The bridge collapses down by one' }).click();
    await expect.poll(() => player.getByRole('meter', { name: /The bridge collapses: 3 of 4/ }).count()).toBe(1);

    // --- undo names what it reverts and reverts it, on both screens
    mark('undo names what it reverts and reverts i');
    const undo = gm.getByTestId('undo');
    await expect.poll(() => undo.textContent()).toContain('tick a countdown');
    await undo.click();
    await expect.poll(() => player.getByRole('meter', { name: /The bridge collapses: 4 of 4/ }).count()).toBe(1);
    await expect.poll(() => gm.getByTestId('redo').isEnabled()).toBe(true);

    // --- the player rolls their own dice; the result lands in the table log
    mark('the player rolls their own dice; the res');
    await player.getByLabel('Dice notation').fill('1d20+2');
    await player.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(() => gm.getByTestId('log').textContent()).toContain('rolled 1d20+2');

    // --- a condition and the clock reach the player's own panel
    mark('a condition and the clock reach the play');
    await enc.getByText('Adjust Brannoc').click();
    await enc.getByLabel('Condition for Brannoc').selectOption('concentrating');
    await enc.getByRole('form', { name: 'Apply a condition to Brannoc' }).getByRole('button', { name: 'Apply' }).click();
    await player.getByRole('list', { name: 'Your conditions' }).getByText(/Concentrating/).waitFor();
    await gm.getByRole('button', { name: '+1 hour' }).click();
    await expect.poll(() => player.getByTestId('clock-time').textContent()).toBe('Day 1, 01:00');

    // --- a second player on another phone sees the same order, and only their own "you"
    mark('a second player on another phone sees th');
    await gm.getByPlaceholder('Player name').fill('Bob');
    await gm.getByRole('button', { name: 'Add player seat' }).click();
    await expect.poll(() => gm.getByTestId('seat-link').count()).toBe(2);
    const bobLink = await gm.getByTestId('seat-link').nth(1).inputValue();
    const phone2 = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phone2.setDefaultTimeout(STEP_TIMEOUT);
    contexts.push(phone2);
    const bob = await phone2.newPage();
    const bobFrames = recordFrames(bob);
    await bob.goto(bobLink);
    await connected(bob);
    const bobOrder = bob.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => bobOrder.getByTestId('combatant').count()).toBe(2);
    expect(await bobOrder.getByText('you', { exact: true }).count()).toBe(0);
    expect(await order.getByText('you', { exact: true }).count()).toBe(1);

    // --- a chase: both players watch both countdowns move on a roll's outcome. OSR rolls no duality dice, so
    // the buttons speak neutrally and no odds of "an action roll of +2 vs 12" are shown (ADR 52).
    mark('a chase');
    await cd.getByLabel('Chase (a progress and a consequence countdown)').check();
    await cd.getByLabel('Chase name').fill('The thief');
    await cd.getByLabel("Progress countdown (the PCs')").fill('Catch the thief');
    await cd.getByLabel("Consequence countdown (the other side's)").fill('The thief escapes');
    await cd.getByLabel('Die size').fill('8');
    await cd.getByLabel('Lead').fill('4');
    await cd.getByRole('button', { name: 'Create chase' }).click();
    await cd.getByTestId('chase').waitFor();
    expect(await cd.getByTestId('chase-odds').count()).toBe(0);
    expect(await cd.getByRole('button', { name: 'Success with Fear' }).count()).toBe(0);
    await cd.getByRole('button', { name: 'Success at a cost' }).click(); // ticks progress 1 and consequence 1
    for (const p of [player, bob]) {
      await expect.poll(() => p.getByRole('meter', { name: /The thief escapes: 3 of 4/ }).count()).toBe(1);
      await expect.poll(() => p.getByRole('meter', { name: /Catch the thief: 7 of 8/ }).count()).toBe(1);
    }

    // --- a spectator link shows the table without dice or a character
    mark('a spectator link shows the table without');
    await gm.getByRole('button', { name: 'Make a spectator link' }).click();
    const spectatorLink = await gm.getByTestId('spectator-link').inputValue();
    const screen = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    screen.setDefaultTimeout(STEP_TIMEOUT);
    contexts.push(screen);
    const spectator = await screen.newPage();
    const spectatorFrames = recordFrames(spectator);
    await spectator.goto(spectatorLink);
    await connected(spectator);
    await spectator.getByRole('list', { name: 'Turn order' }).waitFor();
    expect(await spectator.getByLabel('Dice notation').count()).toBe(0);

    await player.screenshot({ path: path.join(shots, 'player-phone.png'), fullPage: true });
    expect(await horizontalOverflow(player)).toBe(0);

    // --- the GM's dice tray: exact odds as a chart, then a roll
    mark('the GM dice tray');
    const dice = gm.locator('.area-dice');
    await dice.getByLabel('Dice notation').fill('3d6 vs 13');
    await expect.poll(() => dice.getByTestId('probability').textContent()).toContain('25.9%'); // 56/216
    expect(await dice.locator('[data-testid=odds-chart] rect').count()).toBe(16); // totals 3..18
    await dice.getByRole('button', { name: 'Roll', exact: true }).click();
    await dice.getByTestId('roll-total').first().waitFor();
    await gm.evaluate("document.querySelectorAll('details[open]').forEach((d) => { d.open = false; }); window.scrollTo(0, 0)");
    await gm.screenshot({ path: path.join(shots, 'gm-screen.png') });

    // --- secrecy: the canaries never reached the player, in the DOM or on the wire
    mark('secrecy');
    expect(frames.length).toBeGreaterThan(3);
    for (const secret of [CANARY, HIDDEN_FOE]) {
      for (const p of [player, bob, spectator]) expect(await p.content()).not.toContain(secret);
      for (const f of [frames, bobFrames, spectatorFrames]) expect(f.filter((x) => x.includes(secret))).toEqual([]);
    }
    expect(await gm.content()).toContain(CANARY);

    // --- durability: reload, then restart the server on the same port and database
    mark('durability');
    await gm.reload();
    await connected(gm);
    await gm.getByText(CANARY, { exact: true }).waitFor();
    const port = server.port;
    await within(server.close(), 'closing the server');
    server = await within(start(port), 'restarting the server on the same port and database');
    await gm.reload();
    await connected(gm);
    await expect.poll(() => nowActing(gm.locator('.area-encounter'))).toBe('Now acting: Goblin');
    // The roll's outcome moved only the chase: OSR's countdowns move by hand (ADR 52).
    await gm.locator('.area-countdowns').getByRole('meter', { name: /The bridge collapses: 4 of 4/ }).waitFor();
    await player.reload();
    await connected(player);
    await player.getByText('The bridge collapses', { exact: true }).waitFor();
    expect(await player.content()).not.toContain(CANARY);
    for (const secret of [CANARY, HIDDEN_FOE]) for (const f of [frames, bobFrames, spectatorFrames]) expect(f.filter((x) => x.includes(secret))).toEqual([]);

    // While the server was down on purpose, Chromium logs each refused reconnect attempt, and a request in
    // flight when it closed is reset (seen once on CI); nothing else may fail.
    const unexpected = (errors: string[]) => errors.filter((e) => !e.includes('net::ERR_CONNECTION_REFUSED') && !e.includes('net::ERR_CONNECTION_RESET'));
    expect(unexpected(gmErrors)).toEqual([]);
    expect(unexpected(playerErrors)).toEqual([]);
  });
});
