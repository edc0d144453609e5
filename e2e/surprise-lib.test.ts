// The surprise round from the builder (issue 20, review 12 #2): where a ruleset's initiative declares one (002
// "Surprise and Ambushes": two of the ambushers act; 003 "Surprise": the whole surprising team), the GM's choice
// becomes encounter.start's `surprise`, the real engine runs round 0 with only those, and the log says so.
import { describe, expect, it } from 'vitest';
import { escalationValue, getEncounter, scenario, seededRng, type Command, type Json, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { initiativeOf } from '@tablekeeper/rulesets/browser';
import { draftsFrom, startCommand, type Draft } from '../packages/web/src/lib/initiative.ts';
import { ambushEscalationCommand, ambushEscalationOf, markUnsurprised, NO_SURPRISE, surpriseCandidates, surpriseParam, surpriseSides, surpriseWords, unsurprisedCandidates } from '../packages/web/src/lib/surprise.ts';

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(5)), rulesetId: id, settings: settings.value });
}

let n = 0;
function lineUp(s: Scenario, pcs: readonly string[], foes: string, init: { [k: string]: string } = {}): Draft[] {
  const method = initiativeOf(s.world.rulesetId);
  const rows: Draft[] = [];
  for (const name of pcs) {
    s.run({ type: 'character.add', name, kind: 'pc' });
    const ch = Object.values(s.world.characters).find((c) => c.name === name)!;
    const d = draftsFrom(method, { name: '', kind: 'pc', character: ch, hp: '10', hidden: false, init: {} });
    if (!d.ok) throw new Error(d.message);
    rows.push(...d.value);
  }
  const f = draftsFrom(method, { name: foes, kind: 'npc', character: null, hp: '6', hidden: false, init }, (k) => `${k}-${++n}`);
  if (!f.ok) throw new Error(f.message);
  return [...rows, ...f.value];
}

function start(s: Scenario, rows: readonly Draft[], surprise: Json | null, initiating?: string): void {
  const c = startCommand(initiativeOf(s.world.rulesetId), rows, s.world.characters, initiating === undefined ? {} : { initiating });
  if (!c.ok) throw new Error(c.message);
  s.run((surprise === null ? c.value : { ...c.value, surprise }) as unknown as Command);
}
const enc = (s: Scenario) => getEncounter(s.world);
const logText = (s: Scenario) => s.world.log.map((l) => l.text).join('\n');

describe('who declares a surprise round', () => {
  it('the 36th Way (two actors) and teams (a side); OSR, the Kleptonomicon and Daggerheart none', () => {
    expect(initiativeOf('36th-way')!.surprise).toMatchObject({ pick: 'actors', most: 2, source: '002 "Surprise and Ambushes"' });
    expect(initiativeOf('teams')!.surprise).toMatchObject({ pick: 'side', source: '003 "Surprise"' });
    for (const id of ['osr', 'kleptonomicon']) expect(initiativeOf(id)!.surprise, id).toBeNull();
    expect(initiativeOf('daggerheart')?.surprise ?? null).toBeNull();
  });
});

describe('the 36th Way: two ambushers act in the surprise round', () => {
  it('the foes ambush with two goblins: round 0, only those two act, the log says so; then round 1 as usual', () => {
    const s = table('36th-way');
    const rows = lineUp(s, ['Kira', 'Dorn'], 'Goblin x3');
    const method = initiativeOf('36th-way');
    expect(surpriseSides(method, rows)).toEqual([
      { side: 'pcs', label: 'The party' },
      { side: 'npcs', label: 'The foes' },
    ]);
    const goblins = surpriseCandidates(method, rows, 'npcs');
    expect(goblins.map((d) => d.name)).toEqual(['Goblin 1', 'Goblin 2', 'Goblin 3']);
    const choice = { side: 'npcs', actors: [goblins[0]!.id, goblins[2]!.id] };
    expect(surpriseWords(method, rows, choice)).toBe('Surprise round: only Goblin 1 and Goblin 3 act, then the usual order.');
    const p = surpriseParam(method, rows, choice);
    expect(p).toEqual({ ok: true, value: { side: 'npcs', actors: [goblins[0]!.id, goblins[2]!.id] } });
    start(s, rows, p.ok ? p.value : null);
    expect(enc(s).round).toBe(0);
    expect([...enc(s).surpriseActors!].sort()).toEqual([goblins[0]!.id, goblins[2]!.id].sort());
    expect(logText(s)).toContain('begins with a surprise round.');
    // Both ambushers take their turns, then the round is over and round 1 brings everyone in.
    const seen: string[] = [];
    for (let i = 0; i < 6 && enc(s).round === 0; i++) {
      const e = enc(s);
      if (e.current !== null) seen.push(e.current);
      // Only ambushers may be offered while round 0 runs; the first offered takes the turn.
      if (e.current === null && e.pending !== null) seen.push(...e.pending.options);
      s.run(e.current !== null ? { type: 'encounter.endTurn' } : e.pending !== null ? { type: 'encounter.choose', id: e.pending.options[0]! } : { type: 'encounter.advance' });
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((id) => id === goblins[0]!.id || id === goblins[2]!.id)).toBe(true);
    expect(enc(s).round).toBe(1);
    expect(enc(s).surpriseActors).toBeNull();
    expect(logText(s)).toMatch(/Goblin [13]: turn in the surprise round\./);
  });

  it('a side with no actor picked, or three, is told in words before anything is sent; a side no longer lined up is none', () => {
    const s = table('36th-way');
    const rows = lineUp(s, ['Kira'], 'Goblin x3');
    const method = initiativeOf('36th-way');
    const goblins = surpriseCandidates(method, rows, 'npcs').map((d) => d.id);
    const fix = 'Choose who acts in the surprise round: one or two of the foes (002 "Surprise and Ambushes").';
    expect(surpriseParam(method, rows, { side: 'npcs', actors: [] })).toEqual({ ok: false, message: fix });
    expect(surpriseParam(method, rows, { side: 'npcs', actors: goblins })).toEqual({ ok: false, message: fix });
    // Kira is not on the foes' side: picking her for their ambush counts for nothing.
    expect(surpriseParam(method, rows, { side: 'npcs', actors: [rows[0]!.id] })).toEqual({ ok: false, message: fix });
    expect(surpriseParam(method, rows, NO_SURPRISE)).toEqual({ ok: true, value: null });
    expect(surpriseParam(method, rows.slice(0, 1), { side: 'npcs', actors: goblins.slice(0, 1) })).toEqual({ ok: true, value: null });
    // No surprise: round 1 at once, as before.
    start(s, rows, null);
    expect(enc(s).round).toBe(1);
    expect(enc(s).surpriseActors).toBeNull();
  });
});

describe('teams: the surprising team takes a whole round alone (003 "Surprise")', () => {
  it('the Goblins surprise the Party: round 0 has only goblins acting, then the teams alternate', () => {
    const s = table('teams');
    const rows = lineUp(s, ['Kira', 'Dorn'], 'Goblin x2', { team: 'Goblins' });
    const method = initiativeOf('teams');
    expect(surpriseSides(method, rows).map((x) => x.label)).toEqual(['Party', 'Goblins']);
    const choice = { side: 'Goblins', actors: [] };
    expect(surpriseWords(method, rows, choice)).toBe('Surprise round: only Goblins act (and any who cannot be surprised), then the teams take turns.');
    const p = surpriseParam(method, rows, choice);
    expect(p).toEqual({ ok: true, value: { side: 'Goblins' } });
    start(s, rows, p.ok ? p.value : null, 'Goblins');
    expect(enc(s).round).toBe(0);
    const goblinIds = rows.filter((d) => d.kind === 'npc').map((d) => d.id);
    expect([...enc(s).surpriseActors!].sort()).toEqual([...goblinIds].sort());
    expect(logText(s)).toContain('begins with a surprise round.');
  });

  it('Kira cannot be surprised (003 "Surprise", danger sense): marked in the builder, she acts in round 0 beside the goblins', () => {
    const s = table('teams');
    const rows = lineUp(s, ['Kira', 'Dorn'], 'Goblin x2', { team: 'Goblins' });
    const method = initiativeOf('teams');
    // Only the other side's rows may be marked; none where nobody ambushes.
    expect(unsurprisedCandidates(method, rows, 'Goblins').map((d) => d.name)).toEqual(['Kira', 'Dorn']);
    expect(unsurprisedCandidates(method, rows, '')).toEqual([]);
    const kira = rows.find((d) => d.name === 'Kira')!.id;
    const choice = { side: 'Goblins', actors: [], unsurprised: [kira] };
    expect(surpriseWords(method, rows, choice)).toBe('Surprise round: only Goblins act (and Kira, who cannot be surprised), then the teams take turns.');
    const c = startCommand(method, rows, s.world.characters, { initiating: 'Goblins' });
    if (!c.ok) throw new Error(c.message);
    const combatants = markUnsurprised(method, rows, choice, c.value.combatants);
    // Only Kira's line carries the mark.
    expect(combatants.filter((x) => (x as { unsurprisable?: boolean }).unsurprisable === true).map((x) => (x as { id: string }).id)).toEqual([kira]);
    const p = surpriseParam(method, rows, choice);
    s.run({ ...c.value, combatants, surprise: p.ok ? p.value : null } as unknown as Command);
    expect(enc(s).round).toBe(0);
    const goblinIds = rows.filter((d) => d.kind === 'npc').map((d) => d.id);
    expect([...enc(s).surpriseActors!].sort()).toEqual([...goblinIds, kira].sort());
    expect(enc(s).combatants[kira]!.unsurprisable).toBe(true);
    // Dorn, not marked, waits for round 1.
    expect(enc(s).surpriseActors).not.toContain(rows.find((d) => d.name === 'Dorn')!.id);
  });

  it('a mark on a row of the ambushing side, or one taken off the line-up, is dropped', () => {
    const s = table('teams');
    const rows = lineUp(s, ['Kira'], 'Goblin x2', { team: 'Goblins' });
    const method = initiativeOf('teams');
    const gob = rows.find((d) => d.kind === 'npc')!.id;
    const choice = { side: 'Goblins', actors: [], unsurprised: [gob, 'gone-row'] };
    const combatants = rows.map((d) => ({ id: d.id }));
    expect(markUnsurprised(method, rows, choice, combatants)).toEqual(combatants);
    expect(surpriseWords(method, rows, choice)).toBe('Surprise round: only Goblins act (and any who cannot be surprised), then the teams take turns.');
  });
});

describe('the 36th Way: a party ambush may start the escalation die at 1 (002 "Surprise and Ambushes")', () => {
  it('offered only when the party ambushes; chosen, round 0 reads 0, round 1 reads 1, and the log says both', () => {
    const s = table('36th-way');
    const rows = lineUp(s, ['Kira', 'Dorn'], 'Goblin x2');
    const method = initiativeOf('36th-way');
    expect(ambushEscalationOf(method, 'pcs')).toBe(1);
    expect(ambushEscalationOf(method, 'npcs')).toBeNull();
    expect(ambushEscalationOf(initiativeOf('teams'), 'Party')).toBeNull();
    const kira = rows.find((d) => d.name === 'Kira')!.id;
    const choice = { side: 'pcs', actors: [kira], escalation: true };
    // Not chosen, or the foes ambush, or no one picked to act yet: no command.
    expect(ambushEscalationCommand(method, rows, { ...choice, escalation: false })).toBeNull();
    expect(ambushEscalationCommand(method, rows, { side: 'npcs', actors: [rows.find((d) => d.kind === 'npc')!.id], escalation: true })).toBeNull();
    expect(ambushEscalationCommand(method, rows, { ...choice, actors: [] })).toBeNull();
    const die = ambushEscalationCommand(method, rows, choice);
    expect(die).toEqual({ type: 'encounter.escalationOffset', offset: 1 });
    const p = surpriseParam(method, rows, choice);
    start(s, rows, p.ok ? p.value : null);
    s.run(die as unknown as Command);
    expect(enc(s).round).toBe(0);
    expect(escalationValue(enc(s))).toBe(0);
    expect(logText(s)).toContain('The GM moves the escalation die up by 1: it reads 0 in the surprise round and 1 in round 1.');
    for (let i = 0; i < 10 && enc(s).round < 1; i++) {
      const e = enc(s);
      s.run(e.current !== null ? { type: 'encounter.endTurn' } : e.pending !== null ? { type: 'encounter.choose', id: e.pending.options[0]! } : { type: 'encounter.advance' });
    }
    expect(enc(s).round).toBe(1);
    expect(escalationValue(enc(s))).toBe(1);
  });
});
