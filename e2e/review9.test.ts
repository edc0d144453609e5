// Review 9's open items, in real Chromium as a user clicks (issue 20):
// - Daggerheart: a PC invited from the Invite panel showed "evasion 10" on its
//   sheet form before any save, a number that was not the character's; the
//   form now shows it "not set yet" and asks for it. A failed save no longer
//   leaves the last "Saved" line under the new error.
// - Kleptonomicon: the phone's attack form let the player type the Test
//   modifier and Advantage; they are the sheet's and the rules', shown
//   read-only, and the server refuses a player's others in words. The GM's form
//   keeps its boxes.
// - The 36th Way: a foe not yet engaged had its Spear offered (an ally stood
//   nearby) and the roll refused with no reason on screen; the actions panel
//   now says in view why it is not available now and what to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import WebSocket from 'ws';
import { wsProtocols, WS_PATH, type RejectionError, type ServerMessage } from '@tablekeeper/protocol';
import { tswFoeSheet } from '@tablekeeper/rulesets/browser';
import { night, openAction, roll, screen } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review9');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** Sends one command on a socket of its own as `token`'s holder and returns the server's refusal (the test expects one). */
async function refusalOf(token: string, command: { type: string; [k: string]: unknown }): Promise<RejectionError> {
  const ws = new WebSocket(e2e!.server.url.replace(/^http/, 'ws') + WS_PATH, wsProtocols(token));
  try {
    return await new Promise<RejectionError>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as ServerMessage;
        if (m.type === 'snapshot') ws.send(JSON.stringify({ type: 'command', commandId: 'probe-1', expectedVersion: m.version, command }));
        else if (m.type === 'rejection' && m.commandId === 'probe-1') resolve(m.error);
        else if (m.type === 'ack' && m.commandId === 'probe-1') reject(new Error(`accepted: ${JSON.stringify(command)}`));
      });
      ws.on('error', reject);
    });
  } finally {
    ws.close();
  }
}

describe('review 9, in Chromium', () => {
  it("Daggerheart: a PC's sheet form without an Evasion shows it as not set yet and asks for it; a failed save clears the last \"Saved\"", async () => {
    const t = await e2e!.table('daggerheart', 'Evasion');
    const gmSock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    // A PC made without an Evasion: the invite now asks for one (ADR 79), so a script makes this one.
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hpMax: 6 } });

    const edit = gm.p.getByTestId('sheet-form');
    await edit.locator('summary').click();
    const form = edit.getByTestId('schema-form');
    const evasion = form.locator('[id="sheet-form-evasion"]');
    // Nothing made up: the box is empty, says so, and the line beside it says what reads it.
    expect(await evasion.inputValue()).toBe('');
    expect(await evasion.getAttribute('placeholder')).toBe('not set yet');
    expect(await form.getByTestId('field-unset').textContent()).toBe("Evasion is not set yet: an adversary's attack on Kira needs it.");
    const kira = Object.values(gmSock.view().world.characters).find((c) => c.name === 'Kira')!;
    expect(Object.hasOwn(kira.stats, 'evasion')).toBe(false);
    const save = form.getByRole('button', { name: "Save Kira's sheet" });
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Evasion is required.');

    await evasion.fill('11');
    await save.click();
    await expect.poll(() => edit.getByTestId('sheet-form-saved').textContent()).toBe("Saved Kira's sheet.");
    await expect.poll(() => gmSock.view().world.characters[kira.id]!.stats['evasion']).toBe(11);
    await expect.poll(() => form.getByTestId('field-unset').count()).toBe(0);

    // The rules refuse a Severe below Major: the refusal names the field in words, and the last "Saved" goes.
    await form.locator('[id="sheet-form-major"]').fill('10');
    await form.locator('[id="sheet-form-severe"]').fill('5');
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-server-error').textContent()).toBe('Severe threshold must be at least the Major threshold (10).');
    expect(await edit.getByTestId('sheet-form-saved').textContent()).toBe('');

    // Saved again, then a value the form itself refuses: the "Saved" line goes with it.
    await form.locator('[id="sheet-form-severe"]').fill('15');
    await save.click();
    await expect.poll(() => edit.getByTestId('sheet-form-saved').textContent()).toBe("Saved Kira's sheet.");
    await form.locator('[id="sheet-form-evasion"]').fill('99');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Evasion must be from 0 to 60.');
    expect(await edit.getByTestId('sheet-form-saved').textContent()).toBe('');
    expect(await form.getByTestId('schema-form-server-error').count()).toBe(0);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it("Kleptonomicon: the phone's attack shows the sheet's Test modifier and no Advantage, read-only; the server refuses a player's others in words; the GM keeps the boxes", async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Klepto review 9', rulesetId: 'kleptonomicon' });
    const seat = await e2e!.post<{ seatId: string; token: string; link: string }>(`/api/tables/${made.tableId}/seats`, { name: 'Ann' }, made.gmToken);
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 9, attackModifier: 2, attackDamage: '1d4' } });
    const alice = Object.values(gmSock.view().world.characters).find((c) => c.name === 'Alice')!.id;
    await gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await gmSock.command({ type: 'kleptonomicon.freeplay' });
    await gmSock.command({ type: 'encounter.start', combatants: [{ id: 'alice', name: 'Alice', kind: 'pc', characterId: alice }, { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 7, hp: 30 } }] });
    for (let i = 0; i < 6; i++) {
      const enc = gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
      if (enc.current === 'alice') break;
      await gmSock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('alice') ? 'alice' : enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    const gm = await screen(e2e!.browser, contexts, made.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    await expect.poll(() => ann.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');

    const form = await openAction(ann.p, 'Basic Attack');
    expect(await form.getByLabel('Test modifier (from the sheet)').textContent()).toBe('+2');
    expect(await form.getByLabel('Advantage', { exact: true }).textContent()).toBe('none (the GM grants Advantage or Disadvantage)');
    expect(await form.getByLabel('Damage on a hit (from the sheet)').textContent()).toBe('1d4');
    expect(await form.getByRole('spinbutton').count()).toBe(0);
    expect(await form.getByRole('textbox').count()).toBe(0);

    // A player's own numbers sent anyway (an old phone, a script) are refused in words, and no Beat is spent.
    const modifier = await refusalOf(seat.token, { type: 'kleptonomicon.attack', attackerId: 'alice', targetId: 'guard', modifier: 9 });
    expect(modifier).toMatchObject({ kind: 'RULE_ERROR', path: 'modifier', message: "the Test modifier of a Basic Attack comes from Alice's sheet (+2): only the GM may roll with another" });
    const advantage = await refusalOf(seat.token, { type: 'kleptonomicon.attack', attackerId: 'alice', targetId: 'guard', advantage: 3 });
    expect(advantage).toMatchObject({ kind: 'RULE_ERROR', path: 'advantage' });
    expect(advantage.kind === 'RULE_ERROR' ? advantage.message : '').toContain("is the GM's to grant");
    await expect.poll(() => ann.p.getByRole('img', { name: 'beats: 2 of 2 left' }).count()).toBe(1);

    // The phone's roll uses the sheet's +2.
    const result = await roll(form, 'Roll: Basic Attack');
    expect(result).toMatch(/Alice's Basic Attack on Guard: d10 \d+( \(critical (success|failure: a 10, coin lost)\))? \+2 = Score \d+/);
    await expect.poll(() => ann.p.getByRole('img', { name: 'beats: 1 of 2 left' }).count()).toBe(1);

    // The GM's form for Alice keeps every box: the modifier starts from the sheet and may be changed, Advantage granted.
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');
    const gmForm = await openAction(gm.p, 'Basic Attack');
    expect(await gmForm.getByLabel('Modifier').inputValue()).toBe('2');
    await gmForm.getByLabel('Advantage (− Disadvantage)').fill('1');
    const granted = await roll(gmForm, 'Roll: Basic Attack');
    expect(granted).toMatch(/\(of \d+, \d+: the highest counts\) \+2 = Score/);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it("The 36th Way: an Orc not yet engaged cannot use its Spear now, and the panel says why and what to do; once moved to engage, it can", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const spear = tswFoeSheet({ hp: 20, level: 2, ac: 16, pd: 14, md: 11, attackName: 'Spear', attackBonus: 7, attackVs: 'ac', damage: '2d6' });
    for (const [id, name] of [['orc-1', 'Orc 1'], ['orc-2', 'Orc 2']] as const) await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id, name, kind: 'npc', maxHp: 20, ...spear } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'orc-1', name: 'Orc 1', kind: 'npc', side: 'foes', band: 'fast' },
        { id: 'orc-2', name: 'Orc 2', kind: 'npc', side: 'foes', band: 'medium' },
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'slow', characterId: n.idOf('Kira') },
      ],
    });
    // The two Orcs stand together; Kira is nearby, engaged with nobody.
    await n.gmSock.command({ type: '36th-way.position', a: 'orc-1', b: 'orc-2', range: 'engaged' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Orc 1: actions');
    // In view, not folded away: why not, and what to do, in the engine's words.
    // (Disengage has its own line since ADR 69: Orc 1 is engaged with no enemy either.)
    await expect.poll(() => panel.getByTestId('actions-why-not').textContent()).toContain("Not now: Spear: no enemy within Spear's reach (engaged) — move to engage one first");
    expect(await panel.getByRole('group', { name: 'Actions Orc 1 can take now' }).getByRole('button', { name: /^Spear/ }).count()).toBe(0);

    // The GM does what it says: Move to be engaged with Kira.
    const move = await openAction(gm.p, 'Move');
    await move.getByLabel('Target').selectOption({ label: 'Kira (nearby)' });
    await move.getByLabel('To be').selectOption('engaged');
    expect(await roll(move, 'Move')).toContain('Orc 1');
    const attack = await openAction(gm.p, 'Spear');
    await expect.poll(() => attack.getByLabel('Target').locator('option:checked').textContent()).toBe('Kira (engaged)');
    // The Spear's reason is gone (other actions, such as granting a Last Gasp save with nobody dying, may still say why not).
    await expect.poll(async () => (await panel.getByTestId('actions-why-not').allTextContents()).join(' ')).not.toContain('Spear');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
