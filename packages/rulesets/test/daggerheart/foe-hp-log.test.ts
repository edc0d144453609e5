// An adversary's thresholds and HP are the GM's (ADR 33): players read the
// damage dealt and the fall, never its severity (ADR 57), in the log and in history; a PC's line is
// the same for all.
import { describe, expect, it } from 'vitest';
import type { TableView } from '@tablekeeper/engine';
import { DhTable, GM, ofType, player } from './helpers.js';

const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

describe("Daggerheart: an adversary's HP in log lines and history", () => {
  it('players read the damage dealt and the fall, no severity (ADR 57); the GM reads thresholds and marks', () => {
    const t = new DhTable();
    const s = t.seat('Ana');
    t.pc('Rogue', s);
    const tx = t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 6, severe: 11, hp: 4, stress: 2, attack: 1, damage: '1d8+1', visibility: 'visible' });
    const bandit = String(ofType(tx, 'character.added')[0]!['id']);
    t.run({ type: 'daggerheart.takeDamage', characterId: bandit, amount: 7 });
    t.run({ type: 'daggerheart.takeDamage', characterId: bandit, amount: 20 });
    t.run({ type: 'daggerheart.markTrack', characterId: bandit, track: 'stress', amount: 1 });
    const gm = t.view(GM);
    const seen = t.view(player(s));
    expect(lines(gm, 'daggerheart.damage')[0]).toContain('thresholds 6/11');
    // 20 is severe (11 or more): 3 more HP onto 2 marked fills the Bandit's 4 (capped), and the GM's line says it fell (review 12 #14).
    expect(lines(gm, 'daggerheart.damage')[1]).toBe('Bandit takes 20 damage (severe: thresholds 6/11) and marks 2 HP. Bandit is defeated.');
    // No severity under "no numbers" (ADR 57): 7 against 6/11 is major and 20 severe, which would place the thresholds.
    expect(lines(seen, 'daggerheart.damage')).toEqual(['Bandit takes 7 damage and marks HP.', 'Bandit takes 20 damage and marks HP. Bandit is defeated.']);
    for (const l of lines(seen, 'daggerheart.damage')) expect(l).not.toMatch(/minor|major|severe|massive|\d HP/);
    for (const l of lines(seen, 'daggerheart.track')) expect(l).not.toMatch(/marked/);
    expect(events(gm, 'daggerheart.damageTaken')[0]).toMatchObject({ major: 6, severe: 11, hpFrom: 0, hpTo: 2 });
    for (const e of events(seen, 'daggerheart.damageTaken')) for (const k of ['major', 'severe', 'hpFrom', 'hpTo', 'severity', 'marks']) expect(e).not.toHaveProperty(k);
    expect(events(seen, 'daggerheart.damageTaken').map((e) => e['amount'])).toEqual([7, 20]);
    for (const e of events(seen, 'daggerheart.trackMarked')) expect(e).not.toHaveProperty('to');
  });

  it("a PC's line and event are the same for players and the GM", () => {
    const t = new DhTable();
    const s = t.seat('Ana');
    const pc = t.pc('Guardian', s, { major: 7, severe: 14, hpMax: 6, armorMax: 2, stressMax: 6 });
    t.run({ type: 'daggerheart.takeDamage', characterId: pc, amount: 7, useArmor: false });
    const gm = t.view(GM);
    const seen = t.view(player(s));
    expect(lines(seen, 'daggerheart.damage')).toEqual(lines(gm, 'daggerheart.damage'));
    expect(lines(seen, 'daggerheart.damage')[0]).toContain('thresholds 7/14');
    expect(events(seen, 'daggerheart.damageTaken')).toEqual(events(gm, 'daggerheart.damageTaken'));
  });
});
