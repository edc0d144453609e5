// The team turn order over random fights (003 "Initiative and Rounds"): each
// round every member able to act gets one turn, teams alternating, whatever
// mix of End turn, Guard and Wait (actions that end the turn themselves) is
// played. Review 6 saw "Bram: turn starts." then "Round 2 begins." after a
// foe's Guard and the GM's End turn: the engine gives Bram his turn; the
// second End turn, meant for the foe, ended it. `encounter.endTurn` now names
// whose turn it ends, and one that has moved on is refused (ADR 53).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { enc, table } from './helpers.js';

type Enc = ReturnType<typeof enc> & { roster: string[]; combatants: { [id: string]: { side: string } } };

function kiraBramAndBandits() {
  const { s } = table();
  s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', name: 'Kira', kind: 'pc', side: 'party' },
      { id: 'bram', name: 'Bram', kind: 'pc', side: 'party' },
      { id: 'b1', name: 'Bandit 1', kind: 'npc', side: 'foes' },
      { id: 'b2', name: 'Bandit 2', kind: 'npc', side: 'foes' },
    ],
    params: { teamOrder: ['party', 'foes'] },
  });
  return s;
}

describe('the team turn order (003 "Initiative and Rounds")', () => {
  it('Bandit 2 guards (its turn ends) and round 2 begins; an End turn still meant for Bandit 2 is refused and nothing moves', () => {
    const s = kiraBramAndBandits();
    const turn = (id: string) => {
      for (let i = 0; i < 10 && enc(s).current !== id; i++) {
        const e = enc(s);
        if (e.pending !== null) s.run({ type: 'encounter.choose', id: e.pending.options.includes(id) ? id : e.pending.options[0]! });
        else s.run({ type: 'encounter.endTurn' });
      }
      expect(enc(s).current).toBe(id);
    };
    turn('kira');
    s.run({ type: 'encounter.endTurn', id: 'kira' });
    turn('b1');
    s.run({ type: 'encounter.endTurn', id: 'b1' });
    // The party's only member left: Bram would act next; Kira has acted. Then Bandit 2.
    turn('bram');
    s.run({ type: 'encounter.endTurn', id: 'bram' });
    expect(enc(s).current).toBe('b2');
    expect(enc(s).round).toBe(1);
    // Round 2: the party first again; Kira, then the foes.
    s.run({ type: 'teams.act', characterId: 'b2', action: 'Guard' });
    expect(enc(s).round).toBe(2);
    const before = enc(s).current ?? enc(s).pending?.options.join(',');
    // The GM's End turn, sent for Bandit 2 after its Guard ended that turn: refused, nothing moves.
    const refused = s.fail({ type: 'encounter.endTurn', id: 'b2' });
    expect(refused).toMatchObject({ code: 'TURN_MOVED_ON', path: 'id' });
    expect(refused.message).toBe('the turn of "b2" is already over: it is someone else\'s turn now (nothing was ended)');
    expect(enc(s).current ?? enc(s).pending?.options.join(',')).toBe(before);
  });

  it('property: over random End turns, Guards and Waits (each naming whose turn it ends), every able member acts once a round, teams alternating while both have members left', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('end', 'guard', 'wait', 'choose-last'), { minLength: 1, maxLength: 40 }), (moves) => {
        const s = kiraBramAndBandits();
        const acted: string[][] = [[]];
        let round = 1;
        const side = (id: string) => (enc(s) as Enc).combatants[id]!.side;
        for (const m of moves) {
          const e = enc(s);
          if (e.round !== round) {
            // A round ends only after all four have had a turn.
            expect([...acted.at(-1)!].sort()).toEqual(['b1', 'b2', 'bram', 'kira']);
            round = e.round;
            acted.push([]);
          }
          if (e.pending !== null) {
            s.run({ type: 'encounter.choose', id: m === 'choose-last' ? e.pending.options.at(-1)! : e.pending.options[0]! });
            continue;
          }
          const cur = e.current;
          if (cur === null) continue;
          const mine = acted.at(-1)!;
          if (!mine.includes(cur)) mine.push(cur);
          if (m === 'guard') s.run({ type: 'teams.act', characterId: cur, action: 'Guard' });
          else if (m === 'wait') s.run({ type: 'teams.act', characterId: cur, action: 'Wait' });
          else s.run({ type: 'encounter.endTurn', id: cur });
          // A second End turn naming the one whose turn just ended never ends the next one's.
          const after = enc(s).current;
          if (after !== null && after !== cur) expect(s.fail({ type: 'encounter.endTurn', id: cur }).code).toBe('TURN_MOVED_ON');
          expect(enc(s).current).toBe(after);
        }
        // Within a round, the teams alternate while both have someone left (003).
        for (const r of acted) for (let i = 1; i < Math.min(r.length, 4); i++) expect(side(r[i]!)).not.toBe(side(r[i - 1]!));
      }),
      { numRuns: 60 },
    );
  });
});
