// The actions panel's Attack in real Chromium (ADR 23; the attack panel before it). On a 36th Way table: the GM sees the
// exact odds the server's 36th-way.attackOdds query answers (recomputed here by
// counting 3d6 faces), watches them change with the inputs, attacks with the
// ruleset's own 36th-way.attack, and the log and the target's HP follow. A
// player's phone attacks only with their own character, and never receives
// a hidden foe's name or defences, in its page or its WebSocket frames. On a
// teams table the phone says why a secret foe has no odds, and its evasion
// never arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percent } from '../packages/web/src/lib/attack.ts';
import { characterNamed, count3d6, openAttack, startE2e, type E2e } from './harness.ts';
import { horizontalOverflow } from './web.ts';

const CANARY = 'CANARY-k7Wz-lurker';
// The lurker's defences: distinctive numbers whose JSON must never reach the player.
const LURKER = { ac: 37, pd: 41, md: 43 };

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('attack');
});

afterAll(async () => {
  await e2e?.close();
});

describe('the actions panel\'s Attack (36th Way)', () => {
  it('the GM sees the exact odds and attacks; the player attacks only as their own character and never learns the hidden foe', async () => {
    const made = await e2e!.table('36th-way', 'Attack');
    const seat = await e2e!.seat(made, 'Ann');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: seat.seatId });
    const vesk = characterNamed(gmSock, 'Vesk');
    await gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'vesk', name: 'Vesk', kind: 'pc', characterId: vesk, level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    await gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 20 } });
    await gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'lurker', name: CANARY, kind: 'npc', level: 3, volition: 1, ...LURKER, maxHp: 20 } });
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast', characterId: vesk },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'medium' },
        { id: 'lurker', name: CANARY, kind: 'npc', side: 'foes', band: 'slow', visibility: 'hidden' },
      ],
    });
    await gmSock.command({ type: '36th-way.position', a: 'vesk', b: 'ogre', range: 'engaged' });

    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const ann = await e2e!.open(seat.link, { width: 390, height: 844 });
    const panel = await openAttack(gm.p);
    const odds = panel.getByTestId('action-odds');

    // --- the GM: Vesk (acting) against the Ogre by default. +4 vs AC 14 needs a natural 10+; 17+ crits; 3 crit-fails.
    expect(await gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Vesk: actions');
    expect(await panel.getByLabel('Target').inputValue()).toBe('ogre');
    const expected = `${percent(count3d6((n) => n >= 10))} to hit · ${percent(count3d6((n) => n >= 17))} crit · ${percent(count3d6((n) => n === 3))} crit fail`;
    expect(expected).toBe('62.5% to hit · 1.9% crit · 0.5% crit fail');
    await expect.poll(() => odds.locator('strong').textContent()).toBe(expected);
    expect(await odds.textContent()).toContain('+4 vs AC 14: natural 10+ hits, 17+ crits');
    // A basic attack goes against AC (002 "Basic Melee Attack"): the form offers no other defence.
    expect(await panel.getByLabel('Against').count()).toBe(0);
    // The GM may reckon with the hidden lurker (AC 37: only a crit, 17+, lands).
    await panel.getByLabel('Target').selectOption('lurker');
    await expect.poll(() => odds.textContent()).toContain('vs AC 37');
    expect(await odds.locator('strong').textContent()).toContain(`${percent(count3d6((n) => n >= 17))} to hit`);
    await panel.getByLabel('Target').selectOption('ogre');

    // --- the player's phone: only Vesk may attack; the lurker is not there at all. The Ogre's AC is the GM's until
    // the GM reveals foes' defences (ADR 33): first the phone says why it has no odds, then it has the GM's.
    const mine = await openAttack(ann.p);
    await expect.poll(() => mine.getByTestId('action-odds').textContent()).toContain('No odds');
    await gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    await expect.poll(() => mine.getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
    expect(await ann.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Vesk: actions');
    expect(await mine.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (engaged)']);
    expect(await horizontalOverflow(ann.p)).toBe(0);
    // Asked straight over the player's own socket, the hidden lurker is "no sheet", as a made-up id is.
    const annSock = await e2e!.socket(seat.token);
    const hidden = await annSock.query('36th-way.attackOdds', { attacker: 'vesk', target: 'lurker' });
    expect(hidden).toMatchObject({ type: 'queryResult', ok: false, error: { code: 'NOT_FOUND' } });

    // --- the GM attacks with a +30 bonus: only a natural 3 (a crit fail) can miss now, and the odds say so first.
    await panel.getByLabel('Bonus').fill('30');
    await expect.poll(() => odds.locator('strong').textContent()).toContain(`${percent(count3d6((n) => n > 3))} to hit`);
    await panel.getByRole('button', { name: 'Roll: Attack', exact: true }).click();
    const gmLog = gm.p.getByTestId('log');
    await expect.poll(() => gmLog.textContent()).toMatch(/Vesk attacked Ogre \(AC 14\): natural \d+, total \d+;/);
    const line = /Vesk attacked Ogre \(AC 14\): natural (\d+), total (\d+); ([a-z-]+)\./.exec((await gmLog.textContent())!)!;
    const [natural, total, what] = [Number(line[1]), Number(line[2]), line[3]];
    expect(total).toBe(natural + 34);
    if (natural === 3) {
      expect(what).toBe('crit-failed');
    } else {
      expect(what).toBe(natural >= 17 ? 'crit' : 'hit');
      // The server's damage line, and the panel shows the HP it left.
      await expect.poll(() => gmLog.textContent()).toMatch(/Ogre took \d+ (?:damage|damage \(crit\)): 20 -> \d+ HP/);
      const hp = Number(/Ogre took \d+ damage(?: \(crit\))?: 20 -> (\d+) HP/.exec((await gmLog.textContent())!)![1]);
      expect(hp).toBeLessThan(20);
      // The form shows the lines the attack wrote: the roll and the damage it left.
      await expect.poll(() => panel.getByTestId('action-result').textContent()).toContain(`20 -> ${hp} HP`);
    }
    await expect.poll(() => panel.getByTestId('action-result').textContent()).toContain(`Vesk attacked Ogre (AC 14): natural ${natural}`);
    // The player's log has the same line; the standard action is spent, so a second attack is refused in the toast.
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain(`Vesk attacked Ogre (AC 14): natural ${natural}, total ${total}`);

    // --- nothing of the lurker ever reached the phone: not its name, not its defences, in the page or any frame.
    const dom = await ann.p.content();
    expect(dom).not.toContain(CANARY);
    expect(dom).not.toMatch(/AC 37|PD 41|MD 43/);
    for (const frames of [ann.frames, annSock.frames]) {
      expect(frames.filter((f) => f.includes(CANARY))).toEqual([]);
      expect(frames.filter((f) => /"ac":37|"pd":41|"md":43|"defenseValue":(37|41|43)/.test(f))).toEqual([]);
    }
    // ...while the GM's own frames did carry them (the canaries are real).
    expect(gm.frames.some((f) => f.includes(CANARY))).toBe(true);
    expect(gm.frames.some((f) => f.includes('"defenseValue":37'))).toBe(true);

    await gm.p.screenshot({ path: 'test-results/gm-attack.png' });
    await ann.p.screenshot({ path: 'test-results/player-attack.png', fullPage: true });
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('teams: the GM sees a secret foe\'s odds; the phone gets the visible foe\'s and, for the secret one, why not', async () => {
    const made = await e2e!.table('teams', 'Raid');
    const seat = await e2e!.seat(made, 'Bo');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: seat.seatId });
    const ch = characterNamed(gmSock, 'Boudica');
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    const foe = { attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 };
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'boudica', kind: 'pc', side: 'players', characterId: ch },
        { id: 'raider', kind: 'npc', side: 'raiders' },
        { id: 'witch', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    await gmSock.command({ type: 'character.sheet.set', characterId: ch, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } } } });
    await gmSock.command({ type: 'character.sheet.set', characterId: 'raider', sheet: { name: 'Raider', evasion: 6, ...foe } });
    // A secret sheet: players see its name and status words only; its evasion is the canary.
    await gmSock.command({ type: 'character.sheet.set', characterId: 'witch', sheet: { name: 'Witch', secret: true, evasion: 37, ...foe } });
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const bo = await e2e!.open(seat.link, { width: 390, height: 844 });
    const gmPanel = await openAttack(gm.p);
    // d6 + d6 + 1 vs evasion 6, a critical on a luck 19+: 2/20 + 18/20 x 30/36 = 85%.
    await expect.poll(() => gmPanel.getByTestId('action-odds').locator('strong').textContent()).toBe('85% to hit · 10% critical');
    await gmPanel.getByLabel('Target').selectOption('witch');
    await expect.poll(() => gmPanel.getByTestId('action-odds').textContent()).toContain('vs evasion 37');

    // The raider's evasion is the GM's until foes' defences are revealed (ADR 33); a secret sheet stays secret after.
    const mine = await openAttack(bo.p);
    await expect.poll(() => mine.getByTestId('action-odds').textContent()).toContain('No odds');
    await gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    await expect.poll(() => mine.getByTestId('action-odds').locator('strong').textContent()).toBe('85% to hit · 10% critical');
    expect(await mine.getByLabel('Weapon').locator('option').allTextContents()).toEqual(['spear']);
    await mine.getByLabel('Target').selectOption('witch');
    await expect.poll(() => mine.getByTestId('action-odds').textContent()).toBe("No odds: The GM keeps Witch's numbers secret.");
    expect(await bo.p.content()).not.toContain('evasion 37');
    expect(bo.frames.filter((f) => f.includes('"evasion":37'))).toEqual([]);
    expect(gm.frames.some((f) => f.includes('"evasion":37'))).toBe(true);
    expect(await horizontalOverflow(bo.p)).toBe(0);
    expect(gm.errors).toEqual([]);
    expect(bo.errors).toEqual([]);
  });
});
