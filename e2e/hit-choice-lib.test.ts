// The web's side of "you are hit" (ADR 42), without a DOM: who must answer
// now as a viewer's view holds it, the odds of each answer in words, and a
// "none" pick that sends no field.
import { describe, expect, it } from 'vitest';
import type { Json, World } from '@tablekeeper/engine';
import { describeActionOdds, payloadOf, initialForm, type TurnAction } from '../packages/web/src/lib/actions.ts';
import { endWarning, waitingOn } from '../packages/web/src/lib/hitChoices.ts';

const world = (rulesetId: string, teams: Json): World => ({ rulesetId, ext: { teams } }) as unknown as World;

describe('who must answer', () => {
  const w = world('teams', { pending: { a2: { target: 'kira' }, a1: { target: 'bandit' } }, atRisk: { bram: { difficulty: 5 } } });
  it('the GM answers for everyone, sorted; a player for their own creatures only', () => {
    expect(waitingOn(w, true, [])).toEqual(['bandit', 'bram', 'kira']);
    expect(waitingOn(w, false, ['kira'])).toEqual(['kira']);
    expect(waitingOn(w, false, ['petra'])).toEqual([]);
  });
  it("a player's creature on the target's side is asked too (it may Intercept); the GM answers for the target only", () => {
    const w2 = { rulesetId: 'teams', ext: { teams: { pending: { a1: { target: 'kira' } }, atRisk: {} }, encounter: { roster: ['kira', 'petra', 'bandit'], combatants: { kira: { side: 'players' }, petra: { side: 'players' }, bandit: { side: 'bandits' } } } } } as unknown as World;
    expect(waitingOn(w2, false, ['petra'])).toEqual(['petra']);
    expect(waitingOn(w2, false, ['bandit'])).toEqual([]);
    expect(waitingOn(w2, true, [])).toEqual(['kira']);
  });
  const sheets = { 'c-boudica': { name: 'Boudica', characterId: 'ch-b' }, kira: { name: 'Kira', characterId: 'kira' }, brak: { name: 'Brak', characterId: 'brak' } };
  it("between fights a player answers for their characters' kept sheets (ADR 112): under the character's id, or a sheet naming it; the GM for all", () => {
    const w3 = world('teams', { pending: {}, atRisk: { 'c-boudica': { difficulty: 5 }, kira: { difficulty: 3 } }, sheets });
    expect(waitingOn(w3, false, [], ['ch-b'])).toEqual(['c-boudica']);
    expect(waitingOn(w3, false, [], ['kira'])).toEqual(['kira']);
    expect(waitingOn(w3, false, [], ['ch-x'])).toEqual([]);
    expect(waitingOn(w3, true, [])).toEqual(['c-boudica', 'kira']);
  });
  it("while a fight she is not in runs, her player answers for her kept sheet at once (ADR 117); a fighter's phone answers for its combatant as before, and not for another seat's character", () => {
    const fight = { active: true, roster: ['brak', 'gob'], combatants: { brak: { side: 'players', characterId: 'brak' }, gob: { side: 'foes', characterId: null } } };
    const w4 = { rulesetId: 'teams', ext: { teams: { pending: {}, atRisk: { 'c-boudica': { difficulty: 5 }, brak: { difficulty: 4 } }, sheets }, encounter: fight } } as unknown as World;
    // Ana plays Boudica (no combatant in this fight); Bo plays Brak (in it).
    expect(waitingOn(w4, false, [], ['ch-b'])).toEqual(['c-boudica']);
    expect(waitingOn(w4, false, ['brak'], ['brak'])).toEqual(['brak']);
    expect(waitingOn(w4, false, ['brak'], ['brak', 'ch-b'])).toEqual(['brak', 'c-boudica']);
    expect(waitingOn(w4, false, [], ['kira'])).toEqual([]);
    expect(waitingOn(w4, true, [])).toEqual(['brak', 'c-boudica']);
  });
  it('nothing on other rulesets or without teams state', () => {
    expect(waitingOn(world('osr', { pending: { a: { target: 'kira' } } }), true, [])).toEqual([]);
    expect(waitingOn(world('teams', null), true, [])).toEqual([]);
  });
});

describe('ending the fight with something still waiting (review 10)', () => {
  const enc = { roster: ['dorn', 'kira', 'goblin-2'], combatants: { dorn: { name: 'Dorn' }, kira: { name: 'Kira' }, 'goblin-2': { name: 'Goblin 2' } } };
  it('names who has a hit waiting and says it lands with no reaction; a fortify choice knocks out; nothing waiting, no warning', () => {
    const one = { rulesetId: 'teams', ext: { teams: { pending: { a1: { target: 'dorn' } }, atRisk: {} }, encounter: enc } } as unknown as World;
    expect(endWarning(one)).toBe('Dorn has a hit waiting for a reaction: ending the fight now lands it with no reaction.');
    const two = { rulesetId: 'teams', ext: { teams: { pending: { a1: { target: 'dorn' }, a2: { target: 'kira' }, a3: { target: 'dorn' } }, atRisk: { 'goblin-2': {} } }, encounter: enc } } as unknown as World;
    expect(endWarning(two)).toBe('Dorn and Kira have hits waiting for a reaction: ending the fight now lands them with no reaction. Goblin 2 must still choose to fortify or fall: ending the fight now knocks them out.');
    expect(endWarning({ rulesetId: 'teams', ext: { teams: { pending: {}, atRisk: {} }, encounter: enc } } as unknown as World)).toBeNull();
    // A choice raised between fights for someone outside this fight waits on past its end (ADR 112): no warning names them.
    expect(endWarning({ rulesetId: 'teams', ext: { teams: { pending: {}, atRisk: { 'ch-brak': {} } }, encounter: enc } } as unknown as World)).toBeNull();
    expect(endWarning(world('osr', { pending: { a: { target: 'dorn' } } }))).toBeNull();
  });
  it('The 36th Way: an opportunity attack still open is named; ending drops it', () => {
    const w = { rulesetId: '36th-way', ext: { '36th-way': { provocations: [{ against: ['goblin-2'] }], sheets: {} }, encounter: enc } } as unknown as World;
    expect(endWarning(w)).toBe('Goblin 2 may still make an opportunity attack: ending the fight now drops it.');
  });
});

describe('the odds of each answer in words', () => {
  it('take it and parry say the damage that lands and the wear; a dodge its chance and what lands if it fails', () => {
    expect(describeActionOdds('teams.defendOdds', { reaction: 'none', raw: 10, damageType: 'piercing', damage: 2, avoid: 0, difficulty: null, item: null, durability: null })).toEqual({ headline: 'Takes 2 damage', detail: '10 piercing before reduction' });
    expect(describeActionOdds('teams.defendOdds', { reaction: 'block', raw: 10, damageType: 'piercing', damage: 1, avoid: 0, difficulty: null, item: 'shield', durability: { from: 6, to: 0 } })).toEqual({ headline: 'Takes 1 damage', detail: '10 piercing before reduction; shield durability 6 to 0 (breaks)' });
    // 003's worked numbers: a dodge of strength d6 + combat d6 against a 6 succeeds 53/72 of the time.
    expect(describeActionOdds('teams.defendOdds', { reaction: 'dodge', raw: 10, damageType: 'piercing', damage: 2, avoid: 53 / 72, difficulty: 6, item: null, durability: null })).toEqual({ headline: '73.6% to avoid it', detail: 'a test against 6; if it fails, takes 2 damage' });
  });
  it('a test and a killing strike', () => {
    expect(describeActionOdds('teams.testOdds', { pass: 141 / 160, difficulty: 5 })?.headline).toBe('88.1% to succeed');
    expect(describeActionOdds('teams.killingStrikeOdds', { kill: 0.5, difficulty: 3, weapon: 'spear', attribute: 'strength' })).toEqual({ headline: '50% to kill', detail: 'strength + combat with advantage against constitution 3; if it fails, a sneak attack follows' });
  });
});

describe('a "none" pick', () => {
  it('leaves the field out of what is sent', () => {
    const a: TurnAction = {
      id: 'fortify', label: 'Fortify', cost: 'the reaction', command: 'teams.react', fixed: { characterId: 'b', reaction: 'fortify' }, target: null,
      choices: [
        { field: 'test.attribute', label: 'Attribute', options: [{ value: 'strength', label: 'strength (d6)' }] },
        { field: 'test.proficiency', label: 'Proficiency', options: [{ value: 'fortitude', label: 'fortitude (+1)' }, { value: '', label: 'none' }] },
      ],
      numbers: [], flags: [], texts: [], odds: null, allowed: true, reason: null,
    };
    const f = initialForm(a);
    expect(payloadOf(a, f)).toEqual({ ok: true, value: { characterId: 'b', reaction: 'fortify', test: { attribute: 'strength', proficiency: 'fortitude' } } });
    expect(payloadOf(a, { ...f, values: { ...f.values, 'test.proficiency': '' } })).toEqual({ ok: true, value: { characterId: 'b', reaction: 'fortify', test: { attribute: 'strength' } } });
  });
});
