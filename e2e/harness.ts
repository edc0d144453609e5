// One browser and one table server per e2e file: the real ruleset registry
// (every ruleset, as `npm start` serves them), a SQLite file in a temp dir,
// and the built web app.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { applyDelta, unfoldAcks, wsProtocols, WS_PATH, type ServerMessage, type TableView } from '@tablekeeper/protocol';
import { startServer, type RunningServer } from '@tablekeeper/server';
import { launchChromium } from './browser.ts';
import { ensureWebBuilt, recordFrames, watchErrors, webDist } from './web.ts';

export interface E2e {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** POST JSON to the server's HTTP API (as the GM with a token); expects 201. */
  post<T>(path: string, body: unknown, token?: string): Promise<T>;
  /** A bare protocol socket for setup a test is not about, folding its view. */
  socket(token: string): Promise<ProtocolSocket>;
  /** A new table through the HTTP API, as the GM screen's "new table" makes it. */
  table(rulesetId: string, name: string): Promise<MadeTable>;
  /** A player's seat at `table`, made by its GM. */
  seat(table: MadeTable, name: string): Promise<MadeSeat>;
  /** A page in its own browser context (closed by close()), on `link`, once its table socket is open. */
  open(link: string, viewport: { width: number; height: number }, o?: { phone?: boolean }): Promise<OpenPage>;
  /** Closes the sockets, the pages it opened and the given browser contexts, the browser and the server, and removes the database. */
  close(contexts?: readonly BrowserContext[]): Promise<void>;
}

export interface MadeTable {
  readonly tableId: string;
  readonly gmToken: string;
  readonly links: { readonly gm: string };
}

export interface MadeSeat {
  readonly seatId: string;
  readonly token: string;
  readonly link: string;
}

export interface OpenPage {
  readonly p: Page;
  /** Every WebSocket frame the page received, as text (for secrecy checks). */
  readonly frames: string[];
  /** Page errors and console errors (a test expects none). */
  readonly errors: string[];
}

/** The id of the character named `name` in a socket's view (ids are minted at random, ADR 10). */
export function characterNamed(sock: ProtocolSocket, name: string): string {
  const found = Object.values(sock.view().world.characters).find((c) => c.name === name);
  if (found === undefined) throw new Error(`no character named ${name} in the view`);
  return found.id;
}

/**
 * An OSR fight (001 DEX order) on a fresh table: Ann's seat plays Kira (DEX
 * 14); then the `others` (by default a Goblin, DEX 8). Kira acts first.
 */
export async function osrFight(e2e: E2e, tableName: string, others: readonly { name: string; kind: 'pc' | 'npc'; side: string; dex: number; hp: number }[] = [{ name: 'Goblin', kind: 'npc', side: 'foes', dex: 8, hp: 5 }]) {
  const t = await e2e.table('osr', tableName);
  const seat = await e2e.seat(t, 'Ann');
  const gmSock = await e2e.socket(t.gmToken);
  await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { maxHp: 10, hp: 10, dex: 14 } });
  const kira = characterNamed(gmSock, 'Kira');
  await gmSock.command({
    type: 'encounter.start',
    combatants: [
      { name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14, hp: 10, maxHp: 10 } },
      ...others.map((o) => ({ name: o.name, kind: o.kind, side: o.side, stats: { dex: o.dex, hp: o.hp, maxHp: o.hp } })),
    ],
  });
  return { t, seat, gmSock, kira };
}

/**
 * A Daggerheart table with Ann's seat playing Kira, a PC made without a sheet
 * (as the invite panel makes one: no thresholds yet).
 */
export async function daggerheartSeat(e2e: E2e, tableName: string) {
  const t = await e2e.table('daggerheart', tableName);
  const seat = await e2e.seat(t, 'Ann');
  const gmSock = await e2e.socket(t.gmToken);
  await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: {} });
  return { t, seat, gmSock, kira: characterNamed(gmSock, 'Kira') };
}

/**
 * Types a line into the encounter builder's form by its fields' ids (`name`,
 * `hp`, `quick-ac`...) and submits it: `build` before the fight, `add` (the
 * "Add a combatant" form) during it; `hidden` ticks its hidden box.
 */
export async function builderLine(p: Page, values: { readonly [id: string]: string }, o: { prefix?: 'build' | 'add'; hidden?: boolean } = {}): Promise<void> {
  const prefix = o.prefix ?? 'build';
  const form = p.locator(`form:has(#${prefix}-name)`);
  for (const [id, v] of Object.entries(values)) await form.locator(`#${prefix}-${id}`).fill(v);
  if (o.hidden === true) await form.locator('input[name=hidden]').check();
  await form.locator('button[type=submit]').click();
}

/** A teams builder with two teams or more asks who starts the fight (003 gives no default): the team `team` does. */
export async function whoStarts(scope: Page | Locator, team: string): Promise<void> {
  await scope.getByLabel('Who starts the fight').selectOption(team);
}

/** Open the Attack form of the actions panel (the acting creature's, or the phone's own), if it is not open yet. */
export async function openAttack(p: Page) {
  const form = p.getByTestId('action-form');
  if ((await form.count()) === 0) await p.getByTestId('actions-panel').getByRole('button', { name: /^Attack \(/ }).click({ timeout: 10_000 });
  return form;
}

/** Chance that a plain 3d6 shows a natural in `ok`, by counting its 216 faces. */
export function count3d6(ok: (natural: number) => boolean): number {
  let k = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (ok(a + b + c)) k++;
  return k / 216;
}

export interface ProtocolSocket {
  view(): TableView;
  /** Sends a command, expects its ack, and waits until the view has caught up with it. */
  command(c: { type: string; [k: string]: unknown }): Promise<ServerMessage>;
  query(name: string, args: object): Promise<ServerMessage>;
  /** Every frame received, as text (for secrecy checks). */
  readonly frames: string[];
}

export async function startE2e(name: string): Promise<E2e> {
  ensureWebBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), `tk-e2e-${name}-`));
  // Queries run in a worker thread that loads every ruleset through tsx: the time cap is lifted (a loaded
  // CI machine is no runaway query), and the first answer is awaited here, not in a test's 10 s poll.
  const server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, `${name}.sqlite`), logger: pino({ level: 'silent' }), webDist, queryTimeCapMs: 30_000 });
  const sockets: WebSocket[] = [];
  const [browser] = await Promise.all([launchChromium(), warmQueries(server, sockets)]);
  const opened: BrowserContext[] = [];
  const post = async <T>(p: string, body: unknown, token?: string): Promise<T> => {
    const res = await fetch(server.url + p, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    return (await res.json()) as T;
  };
  return {
    server,
    browser,
    post,
    socket: (token) => protocolSocket(server, sockets, token),
    table: (rulesetId, name) => post<MadeTable>('/api/tables', { name, rulesetId }),
    seat: (table, name) => post<MadeSeat>(`/api/tables/${table.tableId}/seats`, { name }, table.gmToken),
    async open(link, viewport, o = {}) {
      const ctx = await browser.newContext({ viewport, ...(o.phone === true ? { isMobile: true, hasTouch: true } : {}) });
      opened.push(ctx);
      const p = await ctx.newPage();
      const frames = recordFrames(p);
      const errors = watchErrors(p);
      await p.goto(new URL(link, server.url).href);
      // The state, not a time: the page has its table once the socket is open.
      await p.locator('[data-testid=conn-status][data-status=open]').waitFor();
      return { p, frames, errors };
    },
    async close(contexts = []) {
      for (const ws of sockets) ws.close();
      for (const c of [...opened, ...contexts]) await c.close().catch(() => undefined);
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Asks one query on a table of its own and waits for the answer: the query worker has then booted.
 * At load 35 on 2 cores that took 40 s, and a test's first odds or status waited for it (a CI flake:
 * the 36th Way escalation die never showed within the poll).
 */
async function warmQueries(server: RunningServer, sockets: WebSocket[]): Promise<void> {
  const res = await fetch(`${server.url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Warm-up', rulesetId: 'osr' }) });
  if (res.status !== 201) throw new Error(`the warm-up table was refused: ${res.status} ${await res.text()}`);
  const { gmToken } = (await res.json()) as MadeTable;
  const sock = await protocolSocket(server, sockets, gmToken);
  const answer = await sock.query('osr.status', {});
  if (answer.type !== 'queryResult' || !answer.ok) throw new Error(`the warm-up query failed: ${JSON.stringify(answer)}`);
}

async function protocolSocket(server: RunningServer, sockets: WebSocket[], token: string): Promise<ProtocolSocket> {
  const ws = new WebSocket(server.url.replace(/^http/, 'ws') + WS_PATH, wsProtocols(token));
  sockets.push(ws);
  const frames: string[] = [];
  let view: TableView | null = null;
  let version = -1;
  const waiters: { pred: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    frames.push(text);
    const m = JSON.parse(text) as ServerMessage;
    if (m.type === 'snapshot') [view, version] = [m.view, m.version];
    else if (m.type === 'delta' && view !== null && m.from === version) [view, version] = [applyDelta(view, m), m.version];
    // A delta carries the acks of our own commands: waiters see them as acks.
    for (const msg of [m, ...unfoldAcks(m)]) {
      for (const w of [...waiters]) {
        if (!w.pred(msg)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    }
  });
  const next = (pred: (m: ServerMessage) => boolean) => new Promise<ServerMessage>((resolve) => waiters.push({ pred, resolve }));
  await next((m) => m.type === 'snapshot');
  let n = 0;
  return {
    frames,
    view: () => view!,
    async command(command) {
      const commandId = `setup-${++n}`;
      let a: ServerMessage;
      // The page under test sends too: when its command lands first, catch up and go again (as the web client does).
      for (let attempt = 0; ; attempt++) {
        const answer = next((m) => (m.type === 'ack' || m.type === 'rejection') && m.commandId === commandId);
        ws.send(JSON.stringify({ type: 'command', commandId, expectedVersion: version, command }));
        a = await answer;
        if (a.type !== 'rejection' || a.error.kind !== 'VERSION_CONFLICT' || attempt >= 3) break;
        while (version < a.error.current) await next((m) => m.type === 'delta' || m.type === 'snapshot');
      }
      expect(a.type, JSON.stringify(a)).toBe('ack');
      // Wait for the delta, so the next command is made against the new version.
      if (a.type === 'ack') while (version < a.version) await next((m) => m.type === 'delta' || m.type === 'snapshot');
      return a;
    },
    query(name, args) {
      const queryId = `q${++n}`;
      const answer = next((m) => m.type === 'queryResult' && m.queryId === queryId);
      ws.send(JSON.stringify({ type: 'query', queryId, name, args }));
      return answer;
    },
  };
}
