// Issue 20 (ADR 86): a GM's open panels never spend the budget the GM's
// commands need. An OSR fight with 5 creatures on the GM screen, every OSR GM
// panel that asks the server open (the turn's actions, the party's and a
// character's rule tools, a chase form with each runner's odds, each PC's
// chance to make it back), and N pressed 15 times, each as soon as the screen
// shows the turn moved (a faster N names a turn already over and the rules
// refuse it, ADR 53). No frame from the server says RATE_LIMITED, the turn
// moved 15 times, and the queries the page sent are bounded by what sharing
// allows: each query (name + args) once per table version the page held, and
// never two of one query out at once. The panels the GM left open open again
// on that device only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-panels-rate');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** One frame on the GM page's socket, in order: sent by the page or received from the server. */
type Wire = { readonly dir: 'sent' | 'received'; readonly msg: { readonly [k: string]: unknown } };

function wire(p: Page): Wire[] {
  const all: Wire[] = [];
  p.on('websocket', (ws) => {
    const add = (dir: Wire['dir']) => (f: { payload: string | Buffer }) => {
      const text = typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8');
      all.push({ dir, msg: JSON.parse(text) as Wire['msg'] });
    };
    ws.on('framesent', add('sent'));
    ws.on('framereceived', add('received'));
  });
  return all;
}

const keyOf = (m: Wire['msg']) => `${String(m['name'])} ${JSON.stringify(m['args'] ?? {})}`;

describe('open OSR panels and a fast N (issue 20, ADR 86)', () => {
  it('15 N presses with every OSR GM panel open: no RATE_LIMITED, the turn moves 15 times, each query asked at most once per version and never twice at once', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    const add = (name: string, kind: 'pc' | 'npc', stats: object, seat = false) => n.gmSock.command({ type: 'character.add', name, kind, ...(seat ? { seatId: n.seatId } : {}), stats });
    await add('Kira', 'pc', { maxHp: 12, hp: 12, str: 12, dex: 14, con: 10, ac: 14 }, true);
    await add('Dorn', 'pc', { maxHp: 15, hp: 15, str: 16, dex: 10, con: 12, ac: 16 });
    for (const g of ['Goblin 1', 'Goblin 2', 'Goblin 3']) await add(g, 'npc', { maxHp: 5, hp: 5, dex: 8, ac: 12, hd: 1 });
    const names = ['Kira', 'Dorn', 'Goblin 1', 'Goblin 2', 'Goblin 3'];
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: names.map((name) => ({ name, kind: name.startsWith('Goblin') ? 'npc' : 'pc', side: name.startsWith('Goblin') ? 'foes' : 'party', characterId: n.idOf(name) })),
    });

    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const frames = wire(gm.p);
    // The page's socket opened before `wire` listened: reload so every frame of this page is seen.
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();

    // Every OSR GM panel that asks the server, open: the actions panel shows itself in a fight.
    await gm.p.getByTestId('actions-panel').waitFor();
    const tools = gm.p.getByTestId('rule-tools');
    await tools.getByTestId('rule-tools-body').locator('summary').click();
    await tools.getByTestId('character-tools').waitFor();
    const party = tools.getByTestId('party-tools');
    await party.getByRole('group', { name: "The party's rules" }).getByRole('button', { name: /^Chase/ }).click();
    const chase = party.getByTestId('action-form');
    await chase.getByLabel('Ground').selectOption('uneven');
    await chase.getByLabel("The other side's speed (feet)").fill('40');
    await expect.poll(() => chase.getByTestId('action-odds-line').count()).toBe(2);
    await gm.p.getByTestId('return-chances').locator('summary').click();
    await gm.p.getByTestId('return-odds').waitFor();
    // Leave the speed box, so N is a shortcut again and not a letter typed into it.
    await gm.p.keyboard.press('Escape');

    const where = () => Promise.all([nowActing(gm.p), gm.p.getByTestId('round').first().textContent()]).then(([a, r]) => `${r ?? ''} ${a}`);
    const startedAt = n.gmSock.view().version;
    for (let i = 0; i < 15; i++) {
      const before = await where();
      await gm.p.keyboard.press('n');
      await expect.poll(where).not.toBe(before);
    }
    // The turn moved 15 times (the screen showed each move): 15 turn commands, each acknowledged.
    const sentCommands = frames.filter((f) => f.dir === 'sent' && f.msg['type'] === 'command');
    expect(sentCommands.map((f) => (f.msg['command'] as { type: string }).type)).toEqual(Array.from({ length: 15 }, () => expect.stringMatching(/^encounter\.(endTurn|advance|choose)$/)));
    const acked = () => new Set(frames.flatMap((f) => (f.dir !== 'received' ? [] : f.msg['type'] === 'ack' ? [f.msg['commandId']] : Array.isArray(f.msg['acks']) ? (f.msg['acks'] as { commandId: string }[]).map((a) => a.commandId) : [])));
    await expect.poll(() => sentCommands.every((c) => acked().has(c.msg['commandId']))).toBe(true);
    await expect.poll(() => n.gmSock.view().version).toBeGreaterThanOrEqual(startedAt + 15);
    // No frame from the server refused anything for a rate: not a command, not a query.
    const refusals = frames.filter((f) => f.dir === 'received' && JSON.stringify(f.msg).includes('RATE_LIMITED'));
    expect(refusals).toEqual([]);
    expect(frames.filter((f) => f.dir === 'received' && f.msg['type'] === 'rejection')).toEqual([]);

    // The bound sharing gives: each query at most once per version the page held, never two of one out at once.
    const versionsHeld = new Set(frames.filter((f) => f.dir === 'received' && (f.msg['type'] === 'snapshot' || f.msg['type'] === 'delta')).map((f) => f.msg['version'])).size;
    const perKey = new Map<string, number>();
    const out = new Map<string, string>();
    for (const f of frames) {
      if (f.dir === 'sent' && f.msg['type'] === 'query') {
        const key = keyOf(f.msg);
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
        expect([...out.values()], `${key} asked while the same query was out`).not.toContain(key);
        out.set(String(f.msg['queryId']), key);
      } else if (f.dir === 'received' && f.msg['type'] === 'queryResult') out.delete(String(f.msg['queryId']));
    }
    const queries = [...perKey.values()].reduce((a, b) => a + b, 0);
    // Not vacuous: the panels asked, and asked again as the turn moved.
    expect(perKey.size).toBeGreaterThanOrEqual(4);
    expect(queries).toBeGreaterThan(perKey.size);
    for (const [key, count] of perKey) expect(count, key).toBeLessThanOrEqual(versionsHeld);
    expect(queries).toBeLessThanOrEqual(perKey.size * versionsHeld);
    console.log(`osr-panels-rate: ${queries} queries over ${perKey.size} distinct queries and ${versionsHeld} versions held; ${[...perKey].map(([k, c]) => `${k.split(' ')[0]} x${c}`).join(', ')}`);
    expect(gm.errors).toEqual([]);

    // The GM left both panels open: on this device they open again so (ADR 86); on another they start shut.
    await gm.p.reload();
    await tools.getByTestId('party-tools').waitFor();
    expect(await tools.getByTestId('rule-tools-body').getAttribute('open')).not.toBeNull();
    await gm.p.getByTestId('return-odds').waitFor();
    const other = await screen(e2e!.browser, contexts, n.links.gm, false);
    await other.p.getByTestId('rule-tools-body').waitFor();
    await other.p.getByTestId('return-chances').waitFor();
    expect(await other.p.getByTestId('rule-tools-body').getAttribute('open')).toBeNull();
    expect(await other.p.getByTestId('return-chances').getAttribute('open')).toBeNull();
    expect(await other.p.getByTestId('party-tools').count()).toBe(0);
  });
});
