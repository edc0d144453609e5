// Issue 20: the Kleptonomicon's Episode rules the screen could not reach, now
// offered as TurnActions. The GM's kleptonomicon.toolActions holds the cold open
// (004 "Opening Credits"), Freeplay's loose turn order and spotlight (004
// "Freeplay"), a ruling on each waiting improvised try with the Test's odds
// before the roll (004 "Improvising"), the GM's closing scene, and a
// character's Experience and resources; kleptonomicon.freeplayActions holds a
// player's introduction and resolution scene (004 "Opening/Closing Credits").
// Each form is sent as the web's action form sends it: fixed fields plus the form's.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng, scenario, type Json, type Rng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };

function table(rng: Rng = fixedRng(Array.from({ length: 40 }, () => 5))): { s: Scenario; alice: string; bob: string } {
  const s = scenario(ruleset.modules, { rng: countingIds(rng), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bo' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: {} });
  s.run({ type: 'character.add', name: 'Bob', kind: 'pc', seatId: 'seat-2', stats: {} });
  return { s, alice: s.world.seats['seat-1']!.characterIds[0]!, bob: s.world.seats['seat-2']!.characterIds[0]! };
}

function ask(s: Scenario, viewer: Viewer, name: string, args: { [k: string]: Json }): ActionsAnswer {
  const r = s.engine.query(s.table, viewer, name, args);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const tools = (s: Scenario, characterId?: string) => ask(s, GM, 'kleptonomicon.toolActions', characterId === undefined ? {} : { characterId });
const freeplay = (s: Scenario, viewer: Viewer, characterId: string) => ask(s, viewer, 'kleptonomicon.freeplayActions', { characterId });
function find(a: ActionsAnswer, id: string): TurnAction {
  const x = a.actions.find((y) => y.id === id);
  if (x === undefined) throw new Error(`no action ${id} in ${a.actions.map((y) => y.id).join(', ')}`);
  return x;
}
/** Sends an entry as the action form does, by the viewer. */
const send = (s: Scenario, a: TurnAction, form: { [k: string]: Json } = {}, viewer: Viewer = GM) => s.run({ type: a.command, ...a.fixed, ...form } as { type: string; [k: string]: Json }, viewer);
const lastLine = (s: Scenario) => s.world.log.at(-1)?.text;

describe('kleptonomicon: the Episode flow by its list entries (issue 20)', () => {
  it('Opening Credits: Ann introduces Alice with a clip from her list, the GM adds a cold open; both say "only in ..." elsewhere', () => {
    const { s, alice, bob } = table();
    expect(find(freeplay(s, ANN, alice), 'introduce')).toMatchObject({ allowed: false, reason: 'only in the Opening Credits' });
    expect(find(tools(s), 'coldOpen')).toMatchObject({ allowed: false, reason: 'only in the Opening Credits, not the time between Episodes' });
    s.run({ type: 'kleptonomicon.startEpisode' });
    const intro = find(freeplay(s, ANN, alice), 'introduce');
    expect(intro).toMatchObject({ allowed: true, label: 'Introduce Alice', command: 'kleptonomicon.introduce', fixed: { characterId: alice } });
    // Bob is Bo's: Ann's list says so rather than offering it.
    expect(find(freeplay(s, ANN, bob), 'introduce')).toMatchObject({ allowed: false, reason: 'Bob is not yours to play' });
    send(s, intro, { clip: 'cheats at cards' }, ANN);
    expect(lastLine(s)).toBe('Alice is introduced. Clip: cheats at cards');
    expect(find(freeplay(s, ANN, alice), 'introduce').label).toBe('Introduce Alice again');
    send(s, find(tools(s), 'coldOpen'), { text: 'A monarch raises taxes.' });
    expect(lastLine(s)).toBe('Cold open: A monarch raises taxes.');
    expect(getKlepto(s.world).opening).toEqual({ introduced: [alice], clips: { [alice]: 'cheats at cards' }, coldOpen: 'A monarch raises taxes.' });
    // The Freeplay tools wait for Freeplay.
    expect(find(tools(s), 'looseOrder')).toMatchObject({ allowed: false, reason: 'only in Freeplay, not the Opening Credits' });
  });

  it('Freeplay: a loose order in the order picked, the spotlight passed along it and wrapping round, then dropped', () => {
    const { s, alice, bob } = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    const set = find(tools(s), 'looseOrder');
    expect(set.target).toMatchObject({ field: 'order', multiple: true, max: 2, picked: [alice, bob] });
    expect(find(tools(s), 'passSpotlight')).toMatchObject({ allowed: false, reason: 'Freeplay has no loose turn order: set one first' });
    expect(find(tools(s), 'dropLooseOrder')).toMatchObject({ allowed: false, reason: 'Freeplay has no loose turn order to drop' });
    send(s, set, { order: [bob, alice] });
    expect(lastLine(s)).toBe('Loose turn order: Bob, Alice.');
    const pass = find(tools(s), 'passSpotlight');
    expect(pass).toMatchObject({ allowed: true, label: 'Pass the spotlight from Bob to Alice' });
    send(s, pass);
    expect(lastLine(s)).toBe('Spotlight: Alice.');
    // Past the last, back to the first.
    expect(find(tools(s), 'passSpotlight').label).toBe('Pass the spotlight from Alice to Bob');
    send(s, find(tools(s), 'passSpotlight'));
    expect(lastLine(s)).toBe('Spotlight: Bob.');
    send(s, find(tools(s), 'dropLooseOrder'));
    expect(lastLine(s)).toBe('Freeplay without a turn order.');
    expect(getKlepto(s.world).looseOrder).toBeNull();
  });

  it("a player's improvised try waits for the GM's ruling: three entries, the Test's odds before the roll (+1: a die of 6 or more, 9/20), and none once ruled", () => {
    // The d10ish die: a 6 with +1 is Score 7, above the fail Score 6.
    const { s, alice } = table(fixedRng(Array.from({ length: 40 }, () => 6)));
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    expect(tools(s).actions.filter((a) => a.command === 'kleptonomicon.rule')).toEqual([]);
    send(s, find(freeplay(s, ANN, alice), 'improvise'), { description: 'climb the bell tower in the rain' }, ANN);
    const rules = tools(s).actions.filter((a) => a.command === 'kleptonomicon.rule');
    expect(rules.map((a) => a.label)).toEqual([
      'Alice\'s try "climb the bell tower in the rain": it happens',
      'Alice\'s try "climb the bell tower in the rain": needs a Test',
      'Alice\'s try "climb the bell tower in the rain": impossible',
    ]);
    const test = rules[1]!;
    expect(test.odds).toEqual({ query: 'kleptonomicon.testOdds', args: {}, pass: ['modifier', 'advantage'] });
    // 6, 7, 8 and 9 at 2/20 each, and the critical 10 (half the 10s) at 1/20; the critical failure (the other half) fails.
    const odds = s.engine.query(s.table, GM, test.odds!.query, { ...test.odds!.args, modifier: 1, advantage: 0 });
    expect(odds.ok && (odds.value as { pass: number }).pass).toBeCloseTo(9 / 20, 12);
    send(s, test, { modifier: 1, advantage: 0 });
    expect(lastLine(s)).toBe('Alice: a Test: Score 7 (pass).');
    expect(tools(s).actions.filter((a) => a.command === 'kleptonomicon.rule')).toEqual([]);
    // A player may not ask for the GM's tools.
    expect(s.engine.query(s.table, ANN, 'kleptonomicon.toolActions', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('a long try is cut short in its button, whole in the log; "it happens" and "impossible" roll nothing', () => {
    const { s, alice, bob } = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    const long = 'talk the harbour master into lending the party his own boat for a night of smuggling';
    send(s, find(freeplay(s, GM, alice), 'improvise'), { description: long });
    send(s, find(freeplay(s, GM, bob), 'improvise'), { description: 'whistle' });
    const labels = tools(s).actions.filter((a) => a.id.endsWith(':simple')).map((a) => a.label);
    expect(labels).toEqual([`Alice's try "${long.slice(0, 59).trimEnd()}…": it happens`, 'Bob\'s try "whistle": it happens']);
    expect(s.world.log.at(-2)?.text).toBe(`Alice tries: ${long}`);
    const before = s.world.log.length;
    send(s, tools(s).actions.find((a) => a.id.endsWith(':simple'))!);
    send(s, tools(s).actions.find((a) => a.id.endsWith(':impossible'))!);
    expect(s.world.log.slice(before).map((e) => e.text)).toEqual(['Alice: it simply happens.', 'Bob: the GM rules it impossible: it fails, no Test.']);
  });

  it('Closing Credits: Ann plays a resolution scene for Alice, the GM a closing scene of their own', () => {
    const { s, alice } = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    expect(find(freeplay(s, ANN, alice), 'resolutionScene')).toMatchObject({ allowed: false, reason: 'only in the Closing Credits' });
    expect(find(tools(s), 'resolutionScene')).toMatchObject({ allowed: false, reason: 'only in the Closing Credits, not Freeplay' });
    s.run({ type: 'kleptonomicon.closingCredits' });
    send(s, find(freeplay(s, ANN, alice), 'resolutionScene'), { text: 'shares a sandwich with the baker' }, ANN);
    expect(lastLine(s)).toBe('Resolution scene (Alice): shares a sandwich with the baker');
    send(s, find(tools(s), 'resolutionScene'), { text: 'the troll is toasted at dinner' });
    expect(lastLine(s)).toBe('Resolution scene: the troll is toasted at dinner');
  });
});

describe("kleptonomicon: a character's Experience and resources (issue 20)", () => {
  it('the GM awards main XP and takes a point back; the form never offers to go below 0; a foe gets no XP', () => {
    const { s, alice } = table();
    s.run({ type: 'character.add', name: 'Troll', kind: 'npc', stats: {} });
    const troll = Object.values(s.world.characters).find((c) => c.name === 'Troll')!.id;
    const award = find(tools(s, alice), 'awardXp');
    expect(award).toMatchObject({ allowed: true, cost: 'Alice has 0 XP at level 1', fixed: { characterId: alice } });
    expect(award.numbers[0]).toMatchObject({ field: 'amount', min: 0, max: 100, value: 1 });
    send(s, award, { amount: 2, reason: 'main goal' });
    expect(lastLine(s)).toBe('Alice gains 2 Experience Points (main goal).');
    const again = find(tools(s, alice), 'awardXp');
    expect(again.numbers[0]!.min).toBe(-2);
    send(s, again, { amount: -1, reason: 'a miscount' });
    expect(lastLine(s)).toBe('Alice loses 1 Experience Point (a miscount).');
    expect(getKlepto(s.world).xp[alice]).toBe(1);
    expect(find(tools(s, troll), 'awardXp')).toMatchObject({ allowed: false, reason: "Troll is no Player Character: Experience is for the players' characters" });
  });

  it('a resource set by name shows in the next form; a hidden foe\'s resource reaches no phone', () => {
    const { s, alice } = table();
    s.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: {} });
    const lurker = Object.values(s.world.characters).find((c) => c.name === 'Lurker')!.id;
    const set = find(tools(s, alice), 'setResource');
    expect(set).toMatchObject({ cost: 'none tracked yet', command: 'kleptonomicon.setResource' });
    expect(set.texts[0]).toMatchObject({ field: 'key', value: 'health', suggestions: ['health', 'vitality', 'shield', 'dodges'] });
    send(s, set, { key: 'shield', max: 3, value: 2 });
    expect(lastLine(s)).toBe('Alice: shield 2/3.');
    const next = find(tools(s, alice), 'setResource');
    expect(next.cost).toBe('now shield 2/3');
    expect(next.texts[0]).toMatchObject({ value: 'shield', suggestions: ['shield', 'health', 'vitality', 'dodges'] });
    expect(next.numbers.map((n) => n.value)).toEqual([3, 2]);
    // The GM's line about a hidden foe stays with the GM; Ann's view holds neither the line nor the number.
    send(s, find(tools(s, lurker), 'setResource'), { key: 'health', max: 12, value: 12 });
    expect(lastLine(s)).toBe('Lurker: health 12/12.');
    const phone = s.engine.view(s.table, ANN);
    expect(JSON.stringify(phone.world.log)).not.toContain('Lurker');
    expect(JSON.stringify(phone.world)).not.toContain(lurker);
  });

  it('property: every entry of both GM lists, sent as offered, is accepted when allowed (any phase, any waiting tries)', () => {
    const steps = ['kleptonomicon.startEpisode', 'kleptonomicon.freeplay', 'kleptonomicon.closingCredits', 'kleptonomicon.endEpisode'] as const;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }), (phase, tries) => {
        const { s, alice } = table();
        for (const t of steps.slice(0, phase)) s.run({ type: t });
        if (getKlepto(s.world).phase !== 'between') for (let i = 0; i < tries; i++) s.run({ type: 'kleptonomicon.improvise', characterId: alice, description: `try ${i}` });
        const entries = [...tools(s).actions, ...tools(s, alice).actions];
        // Bound by construction: each list always holds its fixed entries, so the check never runs on nothing.
        expect(entries.length).toBeGreaterThanOrEqual(7);
        for (const a of entries.filter((x) => x.allowed)) {
          const form: { [k: string]: Json } = {};
          for (const n of a.numbers) form[n.field] = n.value;
          for (const t of a.texts) form[t.field] = t.value === '' ? 'words' : t.value;
          if (a.target !== null) form[a.target.field] = [...(a.target.picked ?? [])];
          const r = s.engine.execute(s.table, { type: a.command, ...a.fixed, ...form } as { type: string; [k: string]: Json }, { rng: s.rng, actor: GM });
          expect(r.ok, `${a.id}: ${r.ok ? '' : r.error.message}`).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });
});
