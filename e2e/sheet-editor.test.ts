// The GM's sheet editor in real Chromium. On a 36th Way table the GM fills
// the PC's and the foe's sheets in a form generated from the ruleset's sheet
// model (no JSON): resistances as rows, limits named in place, the server's
// refusal under the form with its path, and the attack panel then shows the
// exact odds for the two. A player's phone has no editor. On a teams table
// the same form sends character.sheet.set, a weapon's profile included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { type TableView } from '@tablekeeper/protocol';
import { percent } from '../packages/web/src/lib/attack.ts';
import { characterNamed, count3d6, openAttack, startE2e, type E2e } from './harness.ts';
import { teamsRaid } from './fixtures.ts';
import { recordRowLabel } from '../packages/web/src/lib/schemaForm.ts';

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

/** A field of the generated form by its label's start ("AC" is "AC (optional, 0 or more)"). */
const box = (form: Locator, label: string) => form.getByLabel(new RegExp(`^${label} \\(optional[,)]`));

async function fill(form: Locator, values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) await box(form, k).fill(v);
}

describe('sheet editor', () => {
  it('36th Way: the GM fills both sheets by form, a bad field is named, and the attack odds follow', async () => {
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
    const who = editor.getByLabel('Sheet of');
    const form = editor.getByTestId('schema-form');
    const save = form.getByRole('button', { name: 'Save sheet' });
    // No sheets yet: the actions panel says Vesk needs one and opens the editor on him; the form starts on the sheet model's defaults.
    await expect.poll(() => gm.p.getByTestId('actions-panel').textContent()).toContain('Vesk needs a 36th Way sheet before acting or being targeted: fill it in.');
    await gm.p.getByTestId('actions-panel').getByRole('button', { name: "Fill in Vesk's sheet" }).click();
    await expect.poll(() => who.inputValue()).toBe('vesk');
    // The Ogre got a sheet of the rules' defaults when the fight started (ADR 69); Vesk, a PC, has none yet.
    expect(await who.locator('option').allTextContents()).toEqual(['Vesk (no sheet yet)', 'Ogre']);
    expect(await box(form, 'AC').inputValue()).toBe('10');
    expect(await box(form, 'Level').inputValue()).toBe('1');
    expect(await editor.getByLabel(/JSON/).count()).toBe(0);

    // The PC's sheet by form, with Resist fire 16+ as a row.
    await fill(form, { Volition: '3', AC: '15', PD: '12', MD: '11', 'Max HP': '30' });
    await form.getByRole('button', { name: 'add resist' }).click();
    await form.getByLabel('Resist 1: name').selectOption('fire');
    await form.getByLabel(/^fire/).fill('16');
    await save.click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Vesk's sheet.");
    await expect.poll(() => sheetIn(gmSock.view(), '36th-way', 'vesk')).toMatchObject({ characterId: vesk, ac: 15, pd: 12, md: 11, maxHp: 30, hp: 30, resist: { fire: 16 } });

    // A number out of range is named in place before anything is sent.
    await who.selectOption('ogre');
    await fill(form, { Level: '2', AC: '2000' });
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('AC must be from 0 to 1000.');
    expect(await box(form, 'AC').getAttribute('aria-invalid')).toBe('true');
    // A cross-field check only the rules make (HP above max HP) comes back from the server under the form, with the field.
    await fill(form, { AC: '14', 'Max HP': '20', HP: '25' });
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-server-error').textContent()).toBe('HP must be a whole number from -100000 to 20.');
    // Refused: the Ogre keeps the sheet it got at the start (the rules' defaults, ADR 69).
    expect(sheetIn(gmSock.view(), '36th-way', 'ogre')).toMatchObject({ level: 1, ac: 10 });

    // The foe's sheet, fixed.
    await fill(form, { HP: '', Volition: '2', PD: '13', MD: '10' });
    await save.click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Ogre's sheet.");
    await expect.poll(() => sheetIn(gmSock.view(), '36th-way', 'ogre')).toMatchObject({ kind: 'npc', level: 2, ac: 14, pd: 13, md: 10, maxHp: 20 });

    // Back on Vesk, the form shows the stored sheet, the resistance as its row.
    await who.selectOption('vesk');
    expect(await box(form, 'AC').inputValue()).toBe('15');
    expect(await form.getByLabel('Resist 1: name').inputValue()).toBe('fire');
    expect(await form.getByLabel(/^fire/).inputValue()).toBe('16');
    expect(await who.locator('option').allTextContents()).toEqual(['Vesk', 'Ogre']);

    // The actions panel now offers Vesk's Attack on the Ogre, with the server's exact odds: +4 vs AC 14 needs a natural 10+, 17+ crits.
    await gmSock.command({ type: '36th-way.position', a: 'vesk', b: 'ogre', range: 'engaged' });
    const panel = await openAttack(gm.p);
    const expected = `${percent(count3d6((n) => n >= 10))} to hit · ${percent(count3d6((n) => n >= 17))} crit · ${percent(count3d6((n) => n === 3))} crit fail`;
    expect(expected).toBe('62.5% to hit · 1.9% crit · 0.5% crit fail');
    await expect.poll(() => panel.getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
    expect(await gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Vesk: actions');
    expect(await panel.getByLabel('Target').inputValue()).toBe('ogre');

    // Saving the stored sheet again is accepted as it stands (the round trip holds).
    await save.click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain("Vesk's sheet was updated.");
    expect(sheetIn(gmSock.view(), '36th-way', 'vesk')).toMatchObject({ ac: 15, resist: { fire: 16 } });

    // The player's phone has the tracker and the actions panel, but no editor; its odds against the Ogre
    // wait until the GM reveals foes' defences (ADR 33), then match the GM's.
    const ann = await e2e!.open(seat.link, { width: 390, height: 844 });
    await expect.poll(async () => (await openAttack(ann.p)).getByTestId('action-odds').textContent()).toContain('No odds');
    await gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    await expect.poll(async () => (await openAttack(ann.p)).getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
    expect(await ann.p.getByTestId('sheet-editor').count()).toBe(0);
    await gm.p.screenshot({ path: 'test-results/gm-sheet-editor.png' });
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('teams: the form sends character.sheet.set for the chosen combatant, attribute dice as rows and a weapon by its fields', async () => {
    const { made, gmSock } = await teamsRaid(e2e!, 'Raid');
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    const form = editor.getByTestId('schema-form');
    const save = form.getByRole('button', { name: 'Save sheet' });
    // Attributes and skills are dice, picked by name ("d6"); a proficiency is a number.
    const row = async (record: string, i: number, name: string, value: string) => {
      await form.getByRole('button', { name: `add ${record}`, exact: true }).click();
      await form.getByLabel(recordRowLabel(record, i - 1, 'name')).fill(name);
      const box = form.getByLabel(new RegExp(`^${name}`));
      if (record === 'Proficiencies') await box.fill(value);
      else await box.selectOption(value);
    };
    await row('Attributes', 1, 'strength', '6');
    // The names 003 uses are suggested; the dice read as dice.
    const names = form.getByLabel('Attribute 1: name');
    expect(await form.locator(`datalist[id="${await names.getAttribute('list')}"] option`).evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toEqual(['strength', 'dexterity']);
    expect(await form.getByLabel(/^strength/).locator('option').allTextContents()).toEqual(['choose a die…', 'd2', 'd4', 'd6', 'd8', 'd10', 'd12', 'd20']);
    await row('Skills', 1, 'combat', '6');
    await row('Proficiencies', 1, 'martial', '1');
    await fill(form, { Evasion: '5', Constitution: '4', 'Endurance \\(full\\)': '12', 'Health \\(full\\)': '12' });
    // The spear: 003's weapon profile, field by field.
    await form.getByRole('button', { name: 'add items' }).click();
    await form.getByLabel('Item 1: short name').fill('spear');
    const item = form.getByTestId('record-items');
    await item.getByLabel(/^Full name \(optional\)/).fill('spear');
    // The attributes it rolls are ticked from hers (strength given above), 003's dexterity offered too: never typed.
    const rolls = item.getByRole('group', { name: 'Attributes' });
    expect(await rolls.getByRole('checkbox').evaluateAll((bs) => bs.map((b) => b.getAttribute('value')))).toEqual(['strength', 'dexterity']);
    await rolls.getByLabel('strength', { exact: true }).check();
    await item.getByRole('button', { name: 'add proficiencies' }).click();
    await item.getByLabel('Proficiency 1', { exact: true }).fill('martial');
    await item.getByLabel(/^Damage \(0 or more\)/).fill('4');
    await item.getByLabel(/^Critical damage/).fill('8');
    await item.getByLabel(/^Critical threshold/).fill('19');
    // What she holds is picked from her own items.
    // One box per item of hers (review 10).
    const wielded = form.getByRole('group', { name: 'Wielded' });
    await expect.poll(() => wielded.getByRole('checkbox').count()).toBe(1);
    await wielded.getByLabel('spear', { exact: true }).check();
    // 003 "Damage": a blank type would be typeless, which deflection never reduces: the form asks for it, physical types first.
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toMatch(/Damage type of .* is required\./);
    expect((await item.getByLabel(/^Damage type/).locator('option').allTextContents()).slice(0, 4)).toEqual(['choose…', 'bludgeoning', 'piercing', 'slashing']);
    await item.getByLabel(/^Damage type/).selectOption('piercing');
    await save.click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Boudica's sheet.");
    await expect.poll(() => sheetIn(gmSock.view(), 'teams', 'boudica')).toMatchObject({ attributes: { strength: 6 }, items: { spear: { weapon: { damage: 4, criticalThreshold: 19, damageType: 'piercing' } } }, wielded: ['spear'] });
    // A bad evasion, named in place.
    await editor.getByLabel('Sheet of').selectOption('raider');
    await fill(form, { Evasion: '-1' });
    await save.click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Evasion must be from 0 to 10000.');
    await fill(form, { Evasion: '6', Constitution: '3', 'Endurance \\(full\\)': '10', 'Health \\(full\\)': '10' });
    await row('Attributes', 1, 'strength', '6');
    await row('Skills', 1, 'combat', '6');
    await save.click();
    await expect.poll(() => sheetIn(gmSock.view(), 'teams', 'raider')).toMatchObject({ evasion: 6, health: 10 });
    // d6 + d6 + 1 vs evasion 6, a critical on a luck 19+: 2/20 + 18/20 x 30/36 = 85%.
    expect(2 / 20 + (18 / 20) * (30 / 36)).toBeCloseTo(0.85, 10);
    await expect.poll(async () => (await openAttack(gm.p)).getByTestId('action-odds').locator('strong').textContent()).toBe('85% to hit · 10% critical');
    expect(gm.errors).toEqual([]);
  });

  it("teams: the tracker's editor keeps an unsaved draft through a damage delta, a turn change and switching; the save keeps the damage (review 8)", async () => {
    const { made, gmSock } = await teamsRaid(e2e!, 'Drafts');
    for (const id of ['boudica', 'raider']) await gmSock.command({ type: 'character.sheet.set', characterId: id, sheet: { evasion: 5, constitution: 3, maxEndurance: 10, maxHealth: 10, attributes: { strength: 6 }, skills: { combat: 6 } } });
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    await editor.getByLabel('Sheet of').selectOption('raider');
    const form = editor.getByTestId('schema-form');
    await expect.poll(() => form.getByLabel(/^Evasion/).inputValue()).toBe('5');
    await form.getByLabel(/^Evasion/).fill('7');
    await expect.poll(() => editor.getByTestId('sheet-editor-drafts').textContent()).toContain("Raider's changes are not saved yet");

    // A delta: the Raider takes 4 (no deflection), its endurance drops on the stored sheet; the typed evasion stays.
    await gmSock.command({ type: 'teams.damage', targetId: 'raider', amount: 4, reduce: false });
    await expect.poll(() => (sheetIn(gmSock.view(), 'teams', 'raider') as { endurance?: number }).endurance).toBe(6);
    await expect.poll(() => form.getByLabel(/^Endurance now/).inputValue()).toBe('6');
    expect(await form.getByLabel(/^Evasion/).inputValue()).toBe('7');

    // The turn passes (the picker would follow the new turn): the drafted Raider stays picked, the draft with it.
    await gmSock.command({ type: 'encounter.endTurn', id: 'boudica' });
    await expect.poll(() => gm.p.getByTestId('now-acting').textContent()).toContain('Raider');
    await gmSock.command({ type: 'encounter.endTurn', id: 'raider' });
    await expect.poll(() => gm.p.getByTestId('now-acting').textContent()).toContain('Boudica');
    expect(await editor.getByLabel('Sheet of').inputValue()).toBe('raider');
    expect(await form.getByLabel(/^Evasion/).inputValue()).toBe('7');

    // Switching away and back keeps it, and says so.
    await editor.getByLabel('Sheet of').selectOption('boudica');
    await expect.poll(() => editor.getByTestId('sheet-editor-drafts').textContent()).toContain('Unsaved changes kept for Raider');
    await editor.getByLabel('Sheet of').selectOption('raider');
    await expect.poll(() => form.getByLabel(/^Evasion/).inputValue()).toBe('7');

    // Saved: the GM's evasion and the endurance the damage left, not the 10 the form opened with.
    await form.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Raider's sheet.");
    await expect.poll(() => sheetIn(gmSock.view(), 'teams', 'raider')).toMatchObject({ evasion: 7, endurance: 6 });
    expect(await editor.getByTestId('sheet-editor-drafts').count()).toBe(0);

    // A draft discarded goes back to the stored sheet.
    await form.getByLabel(/^Evasion/).fill('9');
    await editor.getByRole('button', { name: "Discard Raider's changes" }).click();
    await expect.poll(() => form.getByLabel(/^Evasion/).inputValue()).toBe('7');
    expect(gm.errors).toEqual([]);
  });
});
