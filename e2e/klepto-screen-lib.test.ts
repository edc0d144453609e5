// The Kleptonomicon screen's pieces without a browser (issue 20): Slowed is
// offered as a fleeting condition (004 "Fleeting Conditions"), the Reward
// phase lists who may get the second XP point (004 "Reward Phase"), and
// Freeplay lists who may make a Test.
import { describe, expect, it } from 'vitest';
import { fixedRng, scenario, type Scenario, type World } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, rulesetDefinition, sheetSchemaFor } from '@tablekeeper/rulesets';
import { describeActionOdds } from '../packages/web/src/lib/actions.ts';
import { optionLabel, setAt, toPayload, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { sheetFields, sheetSetCommand, sheetStart, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';
import { encounterOf } from '../packages/web/src/lib/encounter.ts';
import { edgeSaveLines, edgeSplitNote, encounterGate, experienceOf, freeplayActorsOf, secondaryXpOf } from '../packages/web/src/lib/episode.ts';
import { requestCommand } from '../packages/web/src/lib/requests.ts';
import { conditionCommand, durationChoices, FLEETING, nextCommand } from '../packages/web/src/lib/turns.ts';

function table(): { s: Scenario; alice: string; bob: string } {
  const s = scenario(rulesetDefinition('kleptonomicon')!.modules, { rng: countingIds(fixedRng(Array.from({ length: 60 }, () => 5))), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: {} });
  s.run({ type: 'character.add', name: 'Bob', kind: 'pc', stats: {} });
  const alice = s.world.seats['seat-1']!.characterIds[0]!;
  const bob = Object.values(s.world.characters).find((c) => c.name === 'Bob')!.id;
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  return { s, alice, bob };
}
const gmView = (s: Scenario): World => s.engine.view(s.table, { role: 'gm' }).world;

describe('fleeting Slowed in the condition picker (004 "Fleeting Conditions")', () => {
  it("the view's catalogue marks Slowed fleeting; the picker then offers only the fleeting duration", () => {
    const { s, alice } = table();
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } }] });
    const slowed = encounterOf(gmView(s))!.catalogue!.conditions.find((d) => d.id === 'slowed');
    expect(slowed).toMatchObject({ name: 'Slowed', fleeting: true });
    expect(durationChoices(false, true)).toEqual([[FLEETING, 'fleeting: a stack off at the end of each of their turns']]);
    expect(durationChoices(false).map(([v]) => v)).toEqual(['rounds', 'turnEnd', 'encounterEnd', 'indefinite']);
  });

  it('two stacks of Slowed, fleeting, are applied without a clock of their own (the kernel drops a stack at each of her turn ends)', () => {
    const cmd = conditionCommand('c-alice', { choice: 'slowed', custom: '', duration: FLEETING, rounds: '', stacks: '2' });
    expect(cmd).toEqual({ ok: true, value: { type: 'condition.apply', targetId: 'c-alice', condition: 'slowed', duration: { kind: 'indefinite' }, stacks: 2 } });
    const ask = requestCommand('ch-a', { kind: 'condition', amount: '', choice: 'slowed', custom: '', duration: FLEETING, rounds: '', note: '' });
    expect(ask).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-a', kind: 'condition', condition: 'slowed', duration: 'indefinite' } });
  });

  it('applied so, two stacks lose one at the end of her next turn and the last at the end of the turn after (none at a round end)', () => {
    const { s, alice } = table();
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } }, { id: 'c-rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
    const cmd = conditionCommand('c-alice', { choice: 'slowed', custom: '', duration: FLEETING, rounds: '', stacks: '2' });
    if (!cmd.ok) throw new Error(cmd.message);
    const turnOf = () => encounterOf(s.world)!.current;
    // What the GM's Next button sends.
    const next = () => s.run(nextCommand(encounterOf(s.world)!) as never);
    // Applied on the Rat's turn (not hers), so none of the stacks is fresh at her turn's end.
    for (let i = 0; i < 4 && turnOf() !== 'c-rat'; i++) next();
    expect(turnOf()).toBe('c-rat');
    s.run(cmd.value as never);
    const stacks = () => Object.values(encounterOf(s.world)!.conditions).find((c) => c.target === 'c-alice' && c.defId === 'slowed')?.stacks ?? 0;
    expect(stacks()).toBe(2);
    for (let i = 0; i < 4 && turnOf() !== 'c-alice'; i++) next(); // through the round's end to her turn
    expect(stacks()).toBe(2);
    next(); // her turn ends: one off
    expect(stacks()).toBe(1);
    for (let i = 0; i < 4 && turnOf() !== 'c-alice'; i++) next();
    next();
    expect(stacks()).toBe(0);
  });
});

describe('Reward phase and Freeplay on the Kleptonomicon screen', () => {
  it("secondaryXpOf lists the Encounter's PCs in the Reward phase only, and who already has the second point", () => {
    const { s, alice } = table();
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } }, { id: 'c-rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
    expect(secondaryXpOf(gmView(s))).toEqual([]);
    s.run({ type: 'encounter.end' });
    expect(secondaryXpOf(gmView(s))).toEqual([{ id: alice, name: 'Alice', xp: 1, awarded: false }]);
    s.run({ type: 'kleptonomicon.awardSecondaryXp', characterIds: [alice] });
    expect(secondaryXpOf(gmView(s))).toEqual([{ id: alice, name: 'Alice', xp: 2, awarded: true }]);
    s.run({ type: 'kleptonomicon.freeplay' });
    expect(secondaryXpOf(gmView(s))).toEqual([]);
  });

  it("experienceOf: each PC's level (1 until levelled) and XP; the GM's level-up (004 \"Experience\": no threshold) raises it", () => {
    const { s, alice, bob } = table();
    s.run({ type: 'kleptonomicon.awardXp', characterId: alice, amount: 2 });
    expect(experienceOf(gmView(s))).toEqual([
      { id: alice, name: 'Alice', level: 1, xp: 2 },
      { id: bob, name: 'Bob', level: 1, xp: 0 },
    ]);
    // The command the "Level up" button sends: the GM approves, as the excerpt names no number.
    s.run({ type: 'kleptonomicon.levelUp', characterId: alice, gmApproves: true });
    expect(experienceOf(gmView(s))[0]).toEqual({ id: alice, name: 'Alice', level: 2, xp: 2 });
    expect(gmView(s).log.at(-1)?.text).toBe('Alice reaches level 2.');
  });

  it('freeplayActorsOf: the GM any PC, a player their own; nobody while the fight runs', () => {
    const { s, alice, bob } = table();
    expect(freeplayActorsOf(gmView(s), null).map((a) => a.id).sort()).toEqual([alice, bob].sort());
    expect(freeplayActorsOf(gmView(s), [alice])).toEqual([{ id: alice, name: 'Alice' }]);
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } }] });
    expect(freeplayActorsOf(gmView(s), null)).toEqual([]);
  });
});

describe('Edge Saves on the episode bar (004 "Turn Order")', () => {
  function fight(hiddenSecond: boolean): Scenario {
    // Alice (+0) rolls 9 against foe group 1 (passes: above 6) and 4 against group 2 (fails): she acts after group 2.
    const s = scenario(rulesetDefinition('kleptonomicon')!.modules, { rng: countingIds(fixedRng([9, 4, ...Array.from({ length: 40 }, () => 5)])), rulesetId: 'kleptonomicon' });
    s.run({ type: 'seat.add', name: 'Ann' });
    s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: {} });
    const alice = s.world.seats['seat-1']!.characterIds[0]!;
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } },
        { id: 'r1', name: 'Ratfolk 1', kind: 'npc', stats: { creatureType: 'Ratfolk', edgeSave: 0 } },
        { id: 'r2', name: 'Ratfolk 2', kind: 'npc', stats: { creatureType: 'Ratfolk', edgeSave: 0 }, ...(hiddenSecond ? { visibility: 'hidden' } : {}) },
      ],
      params: { groups: [['r1'], ['r2']] },
    });
    return s;
  }

  it('the GM reads each save, passed or failed, the group it was against and where it put her; one kind split in two says why', () => {
    const s = fight(false);
    expect(edgeSaveLines(gmView(s))).toEqual(['Alice: 9 vs foe group 1 (Ratfolk 1) passed; 4 vs foe group 2 (Ratfolk 2) failed: acts after foe group 2.']);
    expect(edgeSplitNote(gmView(s))).toBe('Ratfolk fill foe groups 1 and 2: the turn order needs 2 to 4 foe groups (004 "Turn Order"), so one kind of foe is split.');
  });

  it("a phone's lines never name or count a hidden foe group", () => {
    const s = fight(true);
    expect(edgeSaveLines(gmView(s))[0]).toContain('Ratfolk 2');
    const phone = s.engine.view(s.table, { role: 'player', seatId: 'seat-1' }).world;
    const lines = edgeSaveLines(phone).join(' ');
    expect(lines).toContain('Alice: 9 vs foe group 1 (Ratfolk 1) passed');
    expect(lines).not.toContain('Ratfolk 2');
    expect(lines).not.toContain('group 2');
    expect(edgeSplitNote(phone)).toBeNull();
  });
});

type Values = { [k: string]: FormValue };

describe('the Kleptonomicon sheet form and attack odds in words (ADR 51)', () => {
  const sheetSchema = () => sheetSchemaFor('kleptonomicon')! as unknown as SheetSchema;
  const abilityFields = (): readonly FieldSpec[] => {
    const list = sheetFields(sheetSchema()).find((f) => f.key === 'abilities')!;
    if (list.kind !== 'list' || list.item.kind !== 'object') throw new Error('abilities is not a list of objects');
    return list.item.fields;
  };

  it('an ability is asked no id; its time and recovery pickers read in words, and a wrong one is refused in them', () => {
    const fields = abilityFields();
    expect(fields.map((f) => f.key)).not.toContain('id');
    const time = fields.find((f) => f.key === 'time')!;
    expect(time.kind === 'enum' && time.options.map((o) => optionLabel(time, o))).toEqual(['1 Beat', 'Free', '1 Beat (a reaction)', 'Free (a reaction)', 'Minutes or longer', 'Episodic']);
    const recovery = fields.find((f) => f.key === 'recovery')!;
    expect(recovery.kind === 'enum' && recovery.options.map((o) => optionLabel(recovery, o))).toEqual(['Dodges Up', 'Shields Up', 'Heal Up']);
    const bad = toPayload(sheetFields(sheetSchema()), setAt(sheetStart(sheetFields(sheetSchema()), {}), ['abilities'], [{ name: 'Quick Strike', time: 'soon' }]) as Values);
    expect(bad.ok === false && bad.errors[0]!.message).toMatch(/must be one of 1 Beat, Free, 1 Beat \(a reaction\)/);
  });

  it('an attack ability by form lands keyed by its name, with its Test modifier, damage and Slowed stacks', () => {
    // The whole engine, as the server runs it (the sheet module handles character.sheet.set).
    const s = scenario(engineFor('kleptonomicon')!.modules, { rng: countingIds(fixedRng([5])), rulesetId: 'kleptonomicon' });
    s.run({ type: 'character.add', name: 'Alice', kind: 'pc', stats: {} });
    const alice = Object.keys(s.world.characters)[0]!;
    const values = setAt(sheetStart(sheetFields(sheetSchema()), {}), ['abilities'], [{ name: 'Quick Strike', time: 'beat', attack: true, modifier: '2', damage: '1d4', slowed: '2', interrupts: false, seconds: '', recovery: '' }]);
    const p = toPayload(sheetFields(sheetSchema()), values as Values);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    s.run(sheetSetCommand(alice, p.payload, true) as never);
    expect(s.world.characters[alice]!.stats['abilities']).toEqual([{ id: 'quick-strike', name: 'Quick Strike', time: 'beat', attack: true, modifier: 2, damage: '1d4', slowed: 2 }]);
  });

  it('the attack odds read as a hit chance against the Defense with the damage dice and their mean', () => {
    expect(describeActionOdds('kleptonomicon.attackOdds', { pass: 0.45, defense: 7, failAtOrBelow: 6, damage: '1d6+1', averageDamage: 4.5 })).toEqual({ headline: '45% to hit', detail: 'a Score of 7 or more (Defense 7) · 1d6+1 damage (4.5 on average)' });
    expect(describeActionOdds('kleptonomicon.attackOdds', { pass: 0.2025, defense: 7, failAtOrBelow: 6, damage: null, averageDamage: null })?.detail).toBe('a Score of 7 or more (Defense 7) · no damage dice');
  });
});

describe('the way to an Encounter through the Episode (004 phases; review 9)', () => {
  it('Between Episodes, then the Opening Credits, lead to Freeplay step by step; from Freeplay the Encounter may start; the Closing Credits lead out', () => {
    const s = scenario(rulesetDefinition('kleptonomicon')!.modules, { rng: countingIds(fixedRng([])), rulesetId: 'kleptonomicon' });
    // A table that never started an Episode may fight at once (the engine agrees, ADR 81): advice, not a block.
    expect(encounterGate(gmView(s))).toMatchObject({ reason: expect.stringContaining('No Episode played yet: this fight may start now') as unknown as string, step: { type: 'kleptonomicon.startEpisode', label: 'Start an Episode' }, blocks: false });
    s.run({ type: encounterGate(gmView(s))!.step.type });
    expect(encounterGate(gmView(s))).toMatchObject({ reason: expect.stringContaining('Opening Credits') as unknown as string, step: { type: 'kleptonomicon.freeplay', label: 'Go to Freeplay' }, blocks: true });
    s.run({ type: encounterGate(gmView(s))!.step.type });
    expect(encounterGate(gmView(s))).toBeNull();
    s.run({ type: 'kleptonomicon.closingCredits' });
    expect(encounterGate(gmView(s))).toMatchObject({ step: { type: 'kleptonomicon.endEpisode' }, blocks: true });
    s.run({ type: 'kleptonomicon.endEpisode' });
    // Between Episodes after one was played: blocked on the screen exactly where the engine refuses the start.
    const between = encounterGate(gmView(s))!;
    expect(between).toMatchObject({ reason: expect.stringContaining('Between Episodes: the last Episode has ended') as unknown as string, step: { type: 'kleptonomicon.startEpisode' }, blocks: true });
    const start = { type: 'encounter.start', combatants: [{ id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } }] };
    expect(s.engine.execute(s.table, start, { rng: s.rng, actor: { role: 'gm' } })).toMatchObject({ ok: false, error: { code: 'BETWEEN_EPISODES' } });
  });

  it('the screen blocks a start exactly where the engine refuses it, in every Episode phase (ADR 81)', () => {
    const s = scenario(rulesetDefinition('kleptonomicon')!.modules, { rng: countingIds(fixedRng([])), rulesetId: 'kleptonomicon' });
    const start = { type: 'encounter.start', combatants: [{ id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } }] };
    const walk = ['kleptonomicon.startEpisode', 'kleptonomicon.freeplay', 'kleptonomicon.closingCredits', 'kleptonomicon.endEpisode', 'kleptonomicon.startEpisode', 'kleptonomicon.freeplay'];
    for (const step of [null, ...walk]) {
      if (step !== null) s.run({ type: step });
      const refused = !s.engine.execute(s.table, start, { rng: s.rng, actor: { role: 'gm' } }).ok;
      expect(encounterGate(gmView(s))?.blocks ?? false, String(step)).toBe(refused);
    }
  });
});
