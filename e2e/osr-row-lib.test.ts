// The OSR row's GM actions (issue 20, GM review: stabilize and morale lived only
// in "Any command"), through the real OSR engine: the damage box downs a
// character through osr.damage; Stabilize is offered while it is dying, with its side's living allies as helpers; a foe's row
// offers a morale check for its side's standing NPCs; both commands run.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type EngineEvent, type Transaction } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { noMoraleWords, osrRowCommands } from '../packages/web/src/lib/osr.ts';
import { encounterOf } from '../packages/web/src/lib/encounter.ts';
import { damageCommand } from '../packages/web/src/lib/damage.ts';

const first = (tx: Transaction): EngineEvent => (tx.kind === 'command' ? tx.events[0]! : { type: 'none' });

describe('osrRowCommands', () => {
  it('Stabilize while dying, helpers from the same side; morale for the standing foes of a side', () => {
    const settings = resolveSettings('osr');
    if (!settings.ok) throw new Error(settings.error.message);
    const s = scenario(engineFor('osr')!.modules, { rng: countingIds(seededRng(4)), rulesetId: 'osr', settings: settings.value });
    const add = (name: string, kind: 'pc' | 'npc', stats: object) => first(s.run({ type: 'character.add', name, kind, stats: stats as never }))['id'] as string;
    const kira = add('Kira', 'pc', { maxHp: 8, dex: 14 });
    const bram = add('Bram', 'pc', { maxHp: 8, dex: 12, wis: 14 });
    const g1 = add('Goblin 1', 'npc', { maxHp: 4, ac: 10 });
    const g2 = add('Goblin 2', 'npc', { maxHp: 4, ac: 10 });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: kira, name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: bram, name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 12 } },
        { id: g1, name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: g1, stats: { dex: 10 } },
        { id: g2, name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: g2, stats: { dex: 10 } },
      ],
    });
    const row = (id: string) => osrRowCommands(s.world, encounterOf(s.world)!, encounterOf(s.world)!.combatants[id]!);
    expect(row(kira)).toEqual({ stabilize: null, morale: null, spotted: null });
    // The damage box on an OSR character goes through osr.damage: at 0 HP Kira is dying, so Stabilize is offered.
    const box = damageCommand(s.world, kira, 'damage', '20');
    expect(box).toEqual({ ok: true, value: { type: 'osr.damage', targetId: kira, amount: 20 } });
    if (box.ok) s.run(box.value as never);
    expect(row(kira).stabilize).toEqual({ targetId: kira, helpers: [{ id: bram, name: 'Bram' }] });
    s.run({ type: 'osr.stabilize', targetId: kira, helperId: bram, method: 'check', difficulty: 10 });
    s.run({ type: 'osr.damage', targetId: g1, amount: 9 });
    // Goblin 1 is down: the morale check is for Goblin 2 alone.
    expect(row(g2).morale).toEqual({ characterIds: [g2], side: 'foes' });
    const tx = s.run({ type: 'osr.morale', characterIds: [g2], as: 'side' });
    expect(tx.kind === 'command' && tx.events.some((e) => e.type.startsWith('osr.morale'))).toBe(true);
  });

  it('Spotted while in stealth (001 "Positioning"), and not after: it sends osr.reveal for the character', () => {
    const settings = resolveSettings('osr');
    if (!settings.ok) throw new Error(settings.error.message);
    const s = scenario(engineFor('osr')!.modules, { rng: countingIds(seededRng(4)), rulesetId: 'osr', settings: settings.value });
    const bram = first(s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { maxHp: 8, dex: 30 } as never }))['id'] as string;
    s.run({ type: 'encounter.start', combatants: [{ id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 12 } }] });
    const row = () => osrRowCommands(s.world, encounterOf(s.world)!, encounterOf(s.world)!.combatants['b']!);
    expect(row().spotted).toBeNull();
    // DEX 30 (+10) against DC 5: the hide cannot fail.
    s.run({ type: 'osr.hide', characterId: bram, difficulty: 5 });
    expect(row().spotted).toBe(bram);
    s.run({ type: 'osr.reveal', characterId: row().spotted! });
    expect(row().spotted).toBeNull();
  });
});

describe('the morale prompt when nobody can roll (review 10)', () => {
  const c = (id: string, name: string, side: string, characterId: string | null, hp: number) => ({ id, name, side, kind: 'npc', characterId, stats: { hp } });
  const enc = (cs: ReturnType<typeof c>[]) => ({ roster: cs.map((x) => x.id), combatants: Object.fromEntries(cs.map((x) => [x.id, x])) }) as never;
  it('names the foes standing without a sheet and what to do; says nobody is left only when nobody is', () => {
    expect(noMoraleWords(enc([c('g1', 'Goblin 1', 'foes', null, 0), c('g2', 'Goblin 2', 'foes', null, 5), c('g3', 'Goblin 3', 'foes', null, 5), c('k', 'Kira', 'party', 'ch-k', 5)]), 'foes')).toBe(
      'Goblin 2 and Goblin 3 have no sheet to check morale with: give each an AC with Set AC under Adjust on its row, and the check can be rolled.',
    );
    expect(noMoraleWords(enc([c('g2', 'Goblin 2', 'foes', null, 5)]), 'foes')).toBe('Goblin 2 has no sheet to check morale with: give it an AC with Set AC under Adjust on its row, and the check can be rolled.');
    expect(noMoraleWords(enc([c('g1', 'Goblin 1', 'foes', null, 0)]), 'foes')).toBe('Nobody on the foes is left standing to check.');
  });
});
