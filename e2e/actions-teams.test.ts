// Team-game actions in real Chromium (003 "Actions in Combat"): Boudica's
// phone opens Attack, picks her spear from her sheet and the Raider, sees the
// exact odds, rolls, and sees the result; the actions left follow the three
// a turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-teams');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('teams actions with weapons, targets and odds', () => {
  it('the phone attacks the Raider with the spear; odds first, then the result; the GM sees the same line', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'boudica', kind: 'pc', side: 'players', characterId: n.idOf('Boudica') },
        { id: 'raider', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Boudica'), sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear }, shield: { name: 'shield', block: 3, maxDurability: 6 } } } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'raider', sheet: { name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The GM has shown players foes' defences, so the phone gets exact odds (ADR 33).
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const form = await openAction(bo.p, 'Attack');
    expect(await form.getByLabel('Weapon').locator('option').allTextContents()).toEqual(['spear']);
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Raider']);
    // d6 + d6 + 1 vs evasion 6, a critical on a luck 19+: 2/20 + 18/20 x 30/36 = 85%, 10% critical.
    await oddsOf(form, '85% to hit · 10% critical');
    // A sneak attack has advantage: 0.1 + 0.9 x (1 - (6/36)^2) = 97.5%.
    await form.getByLabel('Sneak attack').check();
    await oddsOf(form, '97.5% to hit · 10% critical');
    await form.getByLabel('Sneak attack').uncheck();
    await oddsOf(form, '85% to hit · 10% critical');
    const result = await roll(form, 'Roll: Attack');
    expect(result).toMatch(/Boudica/);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain(result.split('.')[0]!);
    // One of three actions spent: two pips of three left on Boudica's row.
    await expect.poll(() => bo.p.getByRole('img', { name: 'actions: 2 of 3 left' }).count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(bo.errors).toEqual([]);
  });

  it("the GM's Petra commands Boudica: her phone offers the granted Attack (commanded), rolls it, and the grant goes with her own actions unspent", async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'petra', name: 'Petra', kind: 'npc', side: 'players' },
        { id: 'boudica', name: 'Boudica', kind: 'pc', side: 'players', characterId: n.idOf('Boudica') },
        { id: 'raider', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Boudica'), sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } } } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'petra', sheet: { name: 'Petra', maxFocus: 2, attributes: { strength: 6 }, skills: { combat: 6 } } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'raider', sheet: { name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    // The players' team starts; the GM gives Petra the turn.
    for (let i = 0; i < 6; i++) {
      const enc = n.gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
      if (enc.current === 'petra') break;
      await n.gmSock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('petra') ? 'petra' : enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Petra: actions');
    // Off her turn Boudica's phone offers nothing granted yet.
    await expect.poll(() => bo.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Boudica: actions (off turn)');
    expect(await bo.p.getByRole('group', { name: 'Actions Boudica can take now' }).getByRole('button', { name: /\(commanded\)/ }).count()).toBe(0);

    const command = await openAction(gm.p, 'Command');
    expect(await command.getByLabel('Target').locator('option').allTextContents()).toEqual(['Boudica']);
    await roll(command, 'Command');
    // The GM sees Boudica's granted actions under Petra's turn; her phone offers them too.
    const granted = gm.p.getByTestId('commanded-actions');
    await expect.poll(() => granted.getByRole('heading').textContent()).toBe('Boudica: actions (off turn)');
    await expect.poll(() => granted.getByRole('button', { name: /^Attack \(commanded\) \(given by Petra's Command\)$/ }).count()).toBe(1);
    const form = await openAction(bo.p, 'Attack \\(commanded\\)');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Raider', 'Petra (ally)']);
    // d6 + d6 + 1 vs evasion 6, a critical on a luck 19+: 2/20 + 18/20 x 30/36 = 85%, 10% critical.
    await oddsOf(form, '85% to hit · 10% critical');
    const result = await roll(form, 'Roll: Attack (commanded)');
    expect(result).toMatch(/Boudica/);
    // The form keeps its result in view; what it was taken with is spent.
    await expect.poll(() => form.getByTestId('action-after').textContent()).toBe('The Command that gave it is used.');
    // Used: the granted entries go on both screens, and Boudica's own three actions wait for her turn unspent.
    await expect.poll(() => bo.p.getByRole('group', { name: 'Actions Boudica can take now' }).getByRole('button', { name: /\(commanded\)/ }).count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('commanded-actions').count()).toBe(0);
    const economy = () => (n.gmSock.view().world.ext['encounter'] as unknown as { economy: { [id: string]: { spent: { [pool: string]: number } } | undefined } }).economy;
    expect(economy()['boudica']?.spent['actions'] ?? 0).toBe(0);
    expect(economy()['petra']?.spent['actions']).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(bo.errors).toEqual([]);
  });
});
