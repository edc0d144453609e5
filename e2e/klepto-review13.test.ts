// Review 13's Kleptonomicon findings, in real Chromium as the reviewer met
// them: a foe typed in the encounter builder carries its Basic Attack (#3: it
// opened at "0% to hit … no damage dice" every time); with "Re-roll initiative
// each round" every round's Edge Saves are in the log, a hidden group's kept
// to the GM (#11: only "see the new order" was logged); a phone asks for
// healing after a fight and the GM's one tap heals the sheet, while a
// condition, which needs a fight, is greyed out with the reason up front
// (#4: the form was filled, then refused after Send).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { oddsOf, openAction } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('klepto-review13');
});
afterAll(async () => {
  await e2e?.close();
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Kleptonomicon review 13', () => {
  it("#3: Goblin typed in the builder with a Basic Attack +3 and 1d6+1 attacks Kira (Defense 12) at 15%, its form starting from those numbers; bad dice are refused in words", async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto13');
    const seat = await e2e!.seat(made, 'Alice');
    const sock = await e2e!.socket(made.gmToken);
    // Kira's Edge Save +9 passes whatever the die: she acts first, the goblin next.
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 9, defense: 12, hp: 10, maxHp: 10 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });

    const form = gm.p.getByRole('form', { name: 'Add to the next encounter' });
    await form.getByLabel('Name', { exact: true }).fill('Goblin');
    await form.getByLabel('Defense', { exact: true }).fill('11');
    await form.getByLabel('HP', { exact: true }).fill('6');
    await form.getByLabel('Basic Attack modifier').fill('3');
    await form.getByLabel('Basic Attack damage').fill('lots');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    await expect.poll(() => text(gm.p.getByTestId('builder-error'))).toBe('Basic Attack damage must be dice such as 1d6+1 (at most 20 dice of 2 to 100 sides, a bonus up to 100), or a number up to 100.');
    await form.getByLabel('Basic Attack damage').fill('1d6+1');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    const lined = gm.p.getByTestId('builder-rows').locator('li').filter({ hasText: 'Goblin' });
    await expect.poll(() => text(lined)).toContain('6 HP · Defense 11 · Basic Attack +3, 1d6+1');

    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Now acting: Kira');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Now acting: Goblin');
    const attack = await openAction(gm.p, 'Basic Attack');
    expect(await attack.getByLabel('Modifier').inputValue()).toBe('3');
    expect(await attack.getByLabel(/^Damage on a hit/).inputValue()).toBe('1d6+1');
    await attack.getByLabel('Target').selectOption({ label: 'Kira (Defense 12)' });
    // d10 + 3 reaches 12 on a 9 (2 in 20) or a won 10 (1 in 20): 3/20.
    await oddsOf(attack, '15% to hit');
    expect(await text(attack.getByTestId('action-odds'))).toContain('1d6+1 damage');
    expect(gm.errors).toEqual([]);
  }, 240_000);

  it('#11: with "Re-roll initiative each round" ticked in the builder, round 2 logs Kira\'s Edge Saves again; the phone reads them without the hidden Lurker', async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto13 reroll');
    const seat = await e2e!.seat(made, 'Alice');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 2, defense: 12, hp: 10, maxHp: 10 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    const form = gm.p.getByRole('form', { name: 'Add to the next encounter' });
    // The Goblin's Edge Save above the Lurker's makes its group the first Kira saves against (004 sorts groups by it).
    await form.getByLabel('Name', { exact: true }).fill('Goblin');
    await form.getByLabel('Edge Save', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    const rows = gm.p.getByTestId('builder-rows');
    await rows.getByText('Goblin', { exact: true }).waitFor();
    await form.getByLabel('Name', { exact: true }).fill('Lurker');
    await form.getByLabel('hidden').check();
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    await rows.getByText('Lurker', { exact: true }).waitFor();
    await gm.p.getByTestId('initiative-options').getByLabel('Re-roll initiative each round').check();
    await gm.p.getByTestId('roll-initiative').click();
    const gmLog = gm.p.getByTestId('log');
    await expect.poll(() => text(gmLog)).toMatch(/Edge Saves for Kira \(a Score of 7 or more passes\)/);

    // Round 1 runs out by the GM's turn ends (Kira's choice of who goes first among PCs is not asked: she is the only one).
    for (let i = 0; i < 12; i++) {
      const enc = sock.view().world.ext['encounter'] as unknown as { round: number; pending: { options: string[] } | null };
      if (enc.round >= 2) break;
      await sock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    await expect.poll(() => text(gmLog)).toContain('Initiative is rolled again for round 2: see the new order.');
    await expect.poll(() => text(gmLog)).toMatch(/Edge Saves for Kira for round 2 \(a Score of 7 or more passes\): against foe group 1 \(Goblin\) rolled d10(ish)? \d+/);
    const phoneLog = phone.p.getByTestId('log');
    await expect.poll(() => text(phoneLog)).toMatch(/Edge Saves for Kira for round 2 \(a Score of 7 or more passes\): against foe group 1 \(Goblin\)/);
    expect(await text(phoneLog)).not.toMatch(/Lurker|foe group 2/);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it('#4: outside a fight Kira\'s phone asks for 4 healing and the GM approves: Health 3 -> 7; a condition is greyed out with why, before anything is filled', async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto13 heal');
    const seat = await e2e!.seat(made, 'Alice');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 2, defense: 12, hp: 3, maxHp: 10 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    const ask = phone.p.getByTestId('ask-gm');
    await expect.poll(() => text(ask.getByTestId('ask-not-now'))).toBe("Kira is in no running fight: conditions are kept on a fight's combatants and wear off by their turns, so a condition can be asked for during an encounter.");
    const kinds = ask.getByLabel(/^For /);
    expect(await kinds.locator('option', { hasText: 'A condition' }).isDisabled()).toBe(true);
    expect(await kinds.locator('option', { hasText: 'A condition' }).textContent()).toBe('A condition (during an encounter)');
    await kinds.selectOption({ label: 'Healing' });
    await ask.getByLabel('Hit points to heal').fill('4');
    await ask.getByLabel('A word to the GM (optional)').fill('bandages');
    await ask.getByRole('button', { name: 'Send to the GM' }).click();
    expect(await ask.getByRole('alert').count()).toBe(0);
    const queue = gm.p.getByTestId('request-queue');
    await queue.getByRole('button', { name: /^Approve Kira \(Alice\)/ }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira is healed by 4 (HP 3 → 7).');
    await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Kira is healed by 4 (HP 3 → 7).');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP 7/10');
    expect(sock.view().world.characters[Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!.id]!.stats['hp']).toBe(7);

    // In a fight the condition is offered again (004's Slowed lives on the combatant).
    await sock.command({ type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', characterId: Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!.id }, { id: 'gob', name: 'Goblin', kind: 'npc', stats: { creatureType: 'goblin', edgeSave: 1, defense: 6, hp: 8, maxHp: 8 } }] });
    await expect.poll(() => ask.getByTestId('ask-not-now').count()).toBe(0);
    expect(await kinds.locator('option', { hasText: 'A condition' }).isDisabled()).toBe(false);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);
});
