// Review 12 #15 in every ruleset: one press of the damage box's Heal writes one log line (OSR wrote the roll and
// the HP change apart). Each ruleset's own command, as the box sends it (damageBoxCommand), from a real engine.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Json } from '@tablekeeper/engine';
import { engineFor } from '@tablekeeper/rulesets';
import { damageBoxCommand } from '@tablekeeper/rulesets/browser';

type Cmd = { type: string; [k: string]: Json | undefined };

function night(rulesetId: string, stats: { [k: string]: Json }, sheet: { [k: string]: Json } | null) {
  const s = scenario(engineFor(rulesetId)!.modules, { rng: seededRng(5), rulesetId });
  s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats });
  const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!.id;
  if (sheet !== null) s.run({ type: 'character.sheet.set', characterId: kira, sheet });
  // The Kleptonomicon's box sends the kernel's encounter.damage / heal: its tracker row is a fight's, in Freeplay (004).
  if (rulesetId === 'kleptonomicon') {
    for (const type of ['kleptonomicon.startEpisode', 'kleptonomicon.freeplay']) s.run({ type });
    s.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', characterId: kira, stats: { hp: 12, maxHp: 12, edgeSave: 0 } }, { id: 'g', name: 'Goblin', kind: 'npc', stats: { hp: 6, creatureType: 'goblin', edgeSave: 0 } }] });
  }
  return { s, kira, row: rulesetId === 'kleptonomicon' ? 'k' : kira };
}

/** The log lines one command adds, as the GM reads them. */
function linesOf(s: ReturnType<typeof night>['s'], c: Cmd): string[] {
  const before = s.view({ role: 'gm' }).world.log.length;
  s.run(c);
  return s.view({ role: 'gm' }).world.log.slice(before).map((l) => l.text);
}

function box(s: ReturnType<typeof night>['s'], row: string, kira: string, kind: 'damage' | 'heal', amount: number): Cmd {
  const c = damageBoxCommand(s.world, { combatantId: row, characterId: kira }, kind, amount);
  if (!c.ok) throw new Error(JSON.stringify(c));
  return c.value as Cmd;
}

const cases: readonly { rulesetId: string; stats: { [k: string]: Json }; sheet: { [k: string]: Json } | null }[] = [
  { rulesetId: 'osr', stats: { hp: 8, maxHp: 8 }, sheet: null },
  { rulesetId: 'daggerheart', stats: { hpMax: 6, evasion: 10, major: 3, severe: 6 }, sheet: null },
  { rulesetId: '36th-way', stats: {}, sheet: { maxHp: 24, hp: 24 } },
  { rulesetId: 'teams', stats: {}, sheet: { maxHealth: 10, health: 10, maxEndurance: 6, endurance: 6, constitution: 4 } },
  { rulesetId: 'kleptonomicon', stats: { hp: 12, maxHp: 12 }, sheet: null },
];

describe('one heal by the damage box, one log line', () => {
  for (const k of cases) {
    it(`${k.rulesetId}: a hit and then a heal of 2 each write one line`, () => {
      const { s, kira, row } = night(k.rulesetId, k.stats, k.sheet);
      const hit = linesOf(s, box(s, row, kira, 'damage', 5));
      expect(hit.length, hit.join(' | ')).toBe(1);
      const heal = linesOf(s, box(s, row, kira, 'heal', 2));
      expect(heal.length, heal.join(' | ')).toBe(1);
      expect(heal[0]).toContain('Kira');
    });
  }
});
