// The teams tracker's damage box picks a damage type (review 7, ADR 56; 003
// "Damage": physical and elemental damage are lessened by the matching
// deflection, typeless is not), and the log says the type: the GM's line
// with the number typed before deflection, the phone's without it. A
// "nonlethal" mark (003 "Death", audit 13 item 12) sends teams.damage
// {nonlethal}: the first overflow knocks out without a death risk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('teams-damage-type');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('teams: the damage box takes a damage type', () => {
  it('5 slashing on deflection 2 physical takes 3 endurance, 4 fire on elemental 0 takes 4; the log names each type; the phone never reads the 5', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Raider', kind: 'npc' });
    const boudica = n.idOf('Boudica');
    const raider = n.idOf('Raider');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: boudica, sheet: { name: 'Boudica', attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12 } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: raider, sheet: { name: 'Raider', evasion: 6, deflection: { physical: 2, elemental: 0 }, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Boudica', kind: 'pc', side: 'players', characterId: boudica },
        { name: 'Raider', kind: 'npc', side: 'raiders', characterId: raider },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Boudica');

    const row = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: 'Raider' });
    const type = row.getByLabel('Damage type for Raider');
    // Typeless first (003: a source naming no type), then the physical types, each saying what deflection does.
    expect(await type.inputValue()).toBe('typeless');
    expect(await type.locator('option').allTextContents()).toContain('slashing (physical: less deflection)');
    await type.selectOption({ label: 'slashing (physical: less deflection)' });
    await row.getByLabel('Amount for Raider').fill('5');
    await row.getByRole('button', { name: 'Damage Raider' }).click();
    await expect.poll(() => text(row)).toMatch(/Endurance 7\/10/);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Raider took 3 slashing damage (5 before deflection): endurance 7, health 10');
    await expect.poll(() => text(bo.p.getByTestId('log'))).toContain('Raider took 3 slashing damage.');

    await type.selectOption({ label: 'fire (elemental: less deflection)' });
    await row.getByLabel('Amount for Raider').fill('4');
    await row.getByRole('button', { name: 'Damage Raider' }).click();
    await expect.poll(() => text(row)).toMatch(/Endurance 3\/10/);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Raider took 4 fire damage: endurance 3, health 10');
    await expect.poll(() => text(bo.p.getByTestId('log'))).toContain('Raider took 4 fire damage.');
    expect(await text(bo.p.getByTestId('log'))).not.toContain('before deflection');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...bo.errors]).toEqual([]);
  }, 240_000);

  it('marked nonlethal, 25 damage on 10 endurance and 10 health knocks the Raider out without a death risk; the next blow risks death', async () => {
    const n = await night(e2e!, 'teams', 'Cy');
    await n.gmSock.command({ type: 'character.add', name: 'Clementine', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Raider', kind: 'npc' });
    const clem = n.idOf('Clementine');
    const raider = n.idOf('Raider');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: clem, sheet: { name: 'Clementine', attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12 } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: raider, sheet: { name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Clementine', kind: 'pc', side: 'players', characterId: clem },
        { name: 'Raider', kind: 'npc', side: 'raiders', characterId: raider },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Clementine');
    const row = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: 'Raider' });
    const mark = row.getByLabel('Nonlethal damage to Raider');
    expect(await mark.isChecked()).toBe(false);
    await mark.check();
    await row.getByLabel('Amount for Raider').fill('25');
    await row.getByRole('button', { name: 'Damage Raider' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Raider took 25 nonlethal typeless damage: endurance 0, health 0');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Raider fell unconscious (no health left).');
    expect(await text(gm.p.getByTestId('log'))).not.toContain('risked death');
    // The mark is for one blow: the box clears it, and the next damage at zero health risks death (003 l.159).
    expect(await mark.isChecked()).toBe(false);
    await row.getByLabel('Amount for Raider').fill('1');
    await row.getByRole('button', { name: 'Damage Raider' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Raider risked death: luck \d+ against 10/);
    expect(gm.errors).toEqual([]);
  }, 240_000);
});
