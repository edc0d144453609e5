// The GM's sheet editor in real Chromium. On a 36th Way table the GM writes
// the PC's and the foe's sheets as JSON in the editor (the server's
// 36th-way.sheet.set checks them), a bad field comes back in place with its path,
// and the attack panel then shows the exact odds for the two. A player's
// phone has no editor. On a teams table the same editor sends teams.setSheet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TableView } from '@tablekeeper/protocol';
import { percent } from '../packages/web/src/lib/attack.ts';
import { characterNamed, count3d6, openAttack, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('sheet');
});

afterAll(async () => {
  await e2e?.close();
});

/** The stored sheet of `id` in a view (36th Way or teams). */
function sheetIn(view: TableView, rules: string, id: string): Record<string, unknown> | undefined {
  const st = view.world.ext[rules] as { sheets?: Record<string, Record<string, unknown>> } | undefined;
  return st?.sheets?.[id];
}

describe('sheet editor', () => {
  it('36th Way: the GM writes both sheets in the editor, a bad field shows its path, and the attack odds follow', async () => {
    const made = await e2e!.table('36th-way', 'Sheets');
    const seat = await e2e!.seat(made, 'Ann');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: seat.seatId });
    const vesk = characterNamed(gmSock, 'Vesk');
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast', characterId: vesk },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });

    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    const who = editor.getByLabel('Sheet of');
    const json = editor.getByLabel(/Sheet JSON/);
    // No sheets yet: the actions panel has nothing for Vesk, and the editor opens on a template naming the combatant.
    await expect.poll(() => gm.p.getByTestId('actions-panel').textContent()).toBe('Vesk has no actions here yet.');
    expect(await who.locator('option').allTextContents()).toEqual(['Vesk (no sheet yet)', 'Ogre (no sheet yet)']);
    const template = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    expect(template).toMatchObject({ id: 'vesk', name: 'Vesk', kind: 'pc', characterId: vesk });

    // The PC's sheet, written in the editor.
    await json.fill(JSON.stringify({ ...template, level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Vesk's sheet.");
    await expect.poll(() => sheetIn(gmSock.view(), '36th-way', 'vesk')).toMatchObject({ characterId: vesk, ac: 15, pd: 12, md: 11, maxHp: 30, hp: 30 });

    // A bad field: the server's INVALID_VALUE (the sheet schema, ADR 13) comes back under the text with the field's path, and nothing is stored.
    await who.selectOption('ogre');
    expect(JSON.parse(await json.inputValue())).toMatchObject({ id: 'ogre', name: 'Ogre', kind: 'npc' });
    await json.fill(JSON.stringify({ id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, ac: 'high' }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-error').textContent()).toContain('INVALID_VALUE');
    const err = (await editor.getByTestId('sheet-error').textContent())!;
    expect(err).toContain('sheet.ac: must be an integer from 0 to 1000');
    expect(err).toContain('(at sheet.ac)');
    expect(await json.getAttribute('aria-invalid')).toBe('true');
    expect(sheetIn(gmSock.view(), '36th-way', 'ogre')).toBeUndefined();
    // Text that is not JSON is caught before anything is sent.
    await json.fill('{ "ac": 14,');
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-error').textContent()).toContain('not JSON');

    // The foe's sheet, fixed; the id comes from the chosen combatant when the text leaves it out.
    await json.fill(JSON.stringify({ name: 'Ogre', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 20 }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Ogre's sheet.");
    expect(await editor.getByTestId('sheet-error').textContent()).toBe('');
    await expect.poll(() => sheetIn(gmSock.view(), '36th-way', 'ogre')).toMatchObject({ kind: 'npc', ac: 14, pd: 13, md: 10, maxHp: 20 });

    // Back on Vesk, the editor shows the stored sheet (the server's defaults filled in, no play state).
    await who.selectOption('vesk');
    const stored = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    expect(stored).toMatchObject({ id: 'vesk', ac: 15, hp: 30, maxRecoveries: 8, abilities: [] });
    expect(stored).not.toHaveProperty('uses');
    expect(await who.locator('option').allTextContents()).toEqual(['Vesk', 'Ogre']);

    // The actions panel now offers Vesk's Attack on the Ogre, with the server's exact odds: +4 vs AC 14 needs a natural 10+, 17+ crits.
    await gmSock.command({ type: '36th-way.position', a: 'vesk', b: 'ogre', range: 'engaged' });
    const panel = await openAttack(gm.p);
    const expected = `${percent(count3d6((n) => n >= 10))} to hit · ${percent(count3d6((n) => n >= 17))} crit · ${percent(count3d6((n) => n === 3))} crit fail`;
    expect(expected).toBe('62.5% to hit · 1.9% crit · 0.5% crit fail');
    await expect.poll(() => panel.getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
    expect(await gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Vesk: actions');
    expect(await panel.getByLabel('Target').inputValue()).toBe('ogre');

    // Saving the stored text again is accepted as it stands (the round trip holds).
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain("Vesk's sheet was updated.");

    // The player's phone has the tracker and the actions panel, but no editor.
    const ann = await e2e!.open(seat.link, { width: 390, height: 844 });
    await expect.poll(async () => (await openAttack(ann.p)).getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
    expect(await ann.p.getByTestId('sheet-editor').count()).toBe(0);
    await gm.p.screenshot({ path: 'test-results/gm-sheet-editor.png' });
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('teams: the editor sends teams.setSheet for the chosen combatant', async () => {
    const made = await e2e!.table('teams', 'Raid');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'boudica', name: 'Boudica', kind: 'pc', side: 'players' },
        { id: 'raider', name: 'Raider', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    const json = editor.getByLabel(/Sheet JSON/);
    expect(JSON.parse(await json.inputValue())).toMatchObject({ name: 'Boudica', attributes: { strength: 6 } });
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    await json.fill(JSON.stringify({ name: 'Boudica', attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } } }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Boudica's sheet.");
    // A bad evasion, with its path.
    await editor.getByLabel('Sheet of').selectOption('raider');
    await json.fill(JSON.stringify({ name: 'Raider', evasion: -1 }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-error').textContent()).toContain('(at sheet.evasion)');
    await json.fill(JSON.stringify({ name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 }));
    await editor.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => sheetIn(gmSock.view(), 'teams', 'raider')).toMatchObject({ evasion: 6, health: 10 });
    // d6 + d6 + 1 vs evasion 6, a critical on a luck 19+: 2/20 + 18/20 x 30/36 = 85%.
    expect(2 / 20 + (18 / 20) * (30 / 36)).toBeCloseTo(0.85, 10);
    await expect.poll(async () => (await openAttack(gm.p)).getByTestId('action-odds').locator('strong').textContent()).toBe('85% to hit · 10% critical');
    expect(gm.errors).toEqual([]);
  });
});
