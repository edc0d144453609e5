// Invariants over random Daggerheart sessions: Hope and Fear stay within
// [0, cap], countdowns never go negative, replay reproduces the table.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countdownList } from '@tablekeeper/engine';
import { DhTable, player, SPECTATOR } from './helpers.js';
import { daggerheartSettings, requestsOf, trackOf, TRACKS } from '../../src/daggerheart/index.js';

const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('roll' as const), who: fc.nat(1), modifier: fc.integer({ min: -3, max: 5 }), difficulty: fc.integer({ min: 5, max: 25 }), advantage: fc.integer({ min: -2, max: 2 }), reaction: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('help' as const), who: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('spendHope' as const), who: fc.nat(1), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('spendFear' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('gainFear' as const), n: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'undo' as const }) },
);

describe('Daggerheart properties', () => {
  it('Hope and Fear stay within their caps, countdowns stay >= 0, replay equals the live table', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), (steps, hopeMax) => {
        const t = new DhTable({ 'daggerheart.hopeMax': hopeMax, 'daggerheart.startingHope': Math.min(2, hopeMax) });
        const seats = [t.seat('A'), t.seat('B')];
        const pcs = [t.pc('A', seats[0]!), t.pc('B', seats[1]!)];
        t.run({ type: 'countdown.create', name: 'cd', kind: 'consequence', start: 5, repeat: 'decreasing' });
        t.run({ type: 'chase.create', name: 'chase', die: 6, lead: 3 });
        for (const st of steps) {
          if (st.t === 'roll') t.try({ type: 'daggerheart.actionRoll', characterId: pcs[st.who]!, modifier: st.modifier, difficulty: st.difficulty, advantage: st.advantage, reaction: st.reaction }, player(seats[st.who]!));
          else if (st.t === 'help') t.try({ type: 'daggerheart.helpAlly', helperId: pcs[st.who]!, targetId: pcs[1 - st.who]! }, player(seats[st.who]!));
          else if (st.t === 'spendHope') t.try({ type: 'daggerheart.spendHope', characterId: pcs[st.who]!, amount: st.n }, player(seats[st.who]!));
          else if (st.t === 'spendFear') t.try({ type: 'daggerheart.spendFear', amount: st.n });
          else if (st.t === 'gainFear') t.try({ type: 'daggerheart.gainFear', amount: st.n });
          else t.try({ type: 'history.undo' });
          const set = daggerheartSettings(t.world);
          for (const pc of pcs) {
            expect(t.hope(pc)).toBeGreaterThanOrEqual(0);
            expect(t.hope(pc)).toBeLessThanOrEqual(set.hopeMax);
          }
          expect(t.fear).toBeGreaterThanOrEqual(0);
          expect(t.fear).toBeLessThanOrEqual(set.fearMax);
          for (const c of countdownList(t.world)) expect(c.value).toBeGreaterThanOrEqual(0);
        }
        const replayed = t.engine.replay(t.table.genesis, t.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(t.world));
      }),
      { numRuns: 50 },
    );
  });

  const tableStep = fc.oneof(
    { weight: 3, arbitrary: fc.record({ t: fc.constant('ask' as const), who: fc.nat(1), difficulty: fc.integer({ min: 5, max: 25 }), hidden: fc.boolean(), advantage: fc.integer({ min: -1, max: 1 }) }) },
    { weight: 4, arbitrary: fc.record({ t: fc.constant('answer' as const), who: fc.nat(1), exp: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('damage' as const), who: fc.nat(1), amount: fc.integer({ min: 0, max: 30 }), armor: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('mark' as const), who: fc.nat(1), track: fc.constantFrom(...TRACKS), amount: fc.integer({ min: -4, max: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('rest' as const), long: fc.boolean(), move: fc.constantFrom('tendWounds', 'clearStress', 'repairArmor', 'prepare') }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('spot' as const), who: fc.nat(2), fear: fc.boolean() }) },
    { weight: 1, arbitrary: fc.constant({ t: 'undo' as const }) },
  );

  it('requests, damage, tracks, rests and the spotlight: every track stays within its slots, Fear within its cap, no hidden difficulty in a player view, replay equals the live table', () => {
    fc.assert(
      fc.property(fc.array(tableStep, { maxLength: 25 }), fc.integer({ min: 0, max: 2 }), (steps, tokens) => {
        const t = new DhTable({ 'daggerheart.actionTokens': tokens });
        const seats = [t.seat('A'), t.seat('B')];
        const pcs = [t.pc('A', seats[0]!, { major: 5, severe: 10, armorMax: 2 }), t.pc('B', seats[1]!, { major: 6, severe: 12, hpMax: 5 })];
        // The foe's own difficulty (4) is outside the requests' range, so the secrecy check below cannot confuse them.
        const added = t.run({ type: 'daggerheart.addAdversaries', name: 'Foe', difficulty: 4, major: 5, severe: 9, hp: 3, moves: [{ name: 'm', countdown: { start: 2, repeat: 'loop' } }], visibility: 'visible' });
        const foeId = String((added.kind === 'command' ? added.events : []).find((e) => e.type === 'character.added')!['id']);
        t.run({ type: 'chase.create', name: 'chase', die: 6, lead: 3 });
        t.run({ type: 'encounter.start', combatants: [...pcs.map((id) => ({ id, kind: 'pc', characterId: id })), { id: foeId, kind: 'npc', characterId: foeId }] });
        const hiddenDifficulties = new Set<number>();
        // A visible request may name the same number: players rightly see that one.
        const shownDifficulties = new Set<number>();
        for (const st of steps) {
          if (st.t === 'ask') {
            const r = t.try({ type: 'daggerheart.requestRoll', characterId: pcs[st.who]!, difficulty: st.difficulty, hidden: st.hidden, advantage: st.advantage, experience: 'Trained', experienceBonus: 2 });
            if (r.ok) (st.hidden ? hiddenDifficulties : shownDifficulties).add(st.difficulty);
          } else if (st.t === 'answer') {
            const open = Object.values(requestsOf(t.world)).find((r) => r.characterId === pcs[st.who]);
            if (open !== undefined) t.try({ type: 'daggerheart.rollRequest', requestId: open.id, useExperience: st.exp }, player(seats[st.who]!));
          } else if (st.t === 'damage') t.try({ type: 'daggerheart.takeDamage', characterId: pcs[st.who]!, amount: st.amount, useArmor: st.armor });
          else if (st.t === 'mark') t.try({ type: 'daggerheart.markTrack', characterId: pcs[st.who]!, track: st.track, amount: st.amount });
          else if (st.t === 'rest') t.try({ type: 'daggerheart.rest', rest: st.long ? 'long' : 'short', moves: [{ characterId: pcs[0]!, move: st.move }] });
          else if (st.t === 'spot') {
            const id = st.who === 2 ? foeId : pcs[st.who]!;
            t.try(st.fear && st.who === 2 ? { type: 'daggerheart.takeSpotlight', combatantId: id } : { type: 'daggerheart.passSpotlight', combatantId: id });
          } else t.try({ type: 'history.undo' });
          const set = daggerheartSettings(t.world);
          for (const id of [...pcs, foeId]) {
            // Undo may rewind past the setup, so a character can be gone.
            const ch = t.world.characters[id];
            if (ch === undefined) continue;
            for (const track of TRACKS) {
              const raw = ch.stats[`${track}Marked`];
              const tr = trackOf(ch.stats, track, 0);
              if (raw !== undefined) expect(raw).toBeLessThanOrEqual(Math.max(tr.slots, track === 'hp' ? set.hpSlots : track === 'stress' ? set.stressSlots : set.armorSlots));
              if (raw !== undefined) expect(raw).toBeGreaterThanOrEqual(0);
            }
          }
          expect(t.fear).toBeGreaterThanOrEqual(0);
          expect(t.fear).toBeLessThanOrEqual(set.fearMax);
        }
        for (const v of [player(seats[0]!), player(seats[1]!), SPECTATOR]) {
          const text = JSON.stringify(t.view(v));
          for (const d of hiddenDifficulties) if (!shownDifficulties.has(d)) expect(text).not.toContain(`"difficulty":${d}`);
        }
        const replayed = t.engine.replay(t.table.genesis, t.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(t.world));
      }),
      { numRuns: 40 },
    );
  });
});
