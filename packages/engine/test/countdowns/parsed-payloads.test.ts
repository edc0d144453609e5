// countdown.create, chase.create, dice.roll and countdown.odds read the payload their declaration
// parsed (issue 17): the schema names a malformed field; the rules beyond the schema refuse in
// sentences that name theirs; the same query through the engine and called alone answers alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getCountdowns, newCountdownEvent } from '../../src/countdowns/module.js';
import { countdownOddsQuery } from '../../src/countdowns/queries.js';
import { seededRng } from '../../src/dice/index.js';
import { GM, PLAYER, createdId, table } from './fixtures.js';

describe('countdown.create refuses in words naming the field', () => {
  it('a name of spaces, start and startDie both, neither, beats past the start or twice at one value', () => {
    const s = table();
    expect(s.fail({ type: 'countdown.create', name: '   ', start: 4 })).toMatchObject({ code: 'INVALID_VALUE', path: 'name', message: 'name must have at least 1 character(s)' });
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 4, startDie: '1d6' })).toMatchObject({ code: 'INVALID_VALUE', path: 'startDie', message: 'give start or startDie, not both' });
    expect(s.fail({ type: 'countdown.create', name: 'x' })).toMatchObject({ code: 'INVALID_VALUE', path: 'start', message: 'start: is required (a value from 1 to 100), or give startDie' });
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 4, beats: [{ at: 5, text: 'too far' }] })).toMatchObject({ code: 'INVALID_VALUE', path: 'beats.0.at', message: "a beat's at is a value from 0 to 4" });
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 4, beats: [{ at: 2, text: 'a' }, { at: 2, text: 'b' }] })).toMatchObject({ code: 'INVALID_VALUE', path: 'beats.1.at', message: 'two beats at 2' });
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 4, beats: [{ at: 2, text: '  ' }] })).toMatchObject({ code: 'INVALID_VALUE', path: 'beats.0.text' });
    // The schema's own words for a wrong type, before any rule runs.
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 'four' })).toMatchObject({ code: 'INVALID_VALUE', path: 'start', message: 'start: must be an integer from 1 to 100' });
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 4, restTicks: { longRest: 13 } })).toMatchObject({ code: 'INVALID_VALUE', path: 'restTicks.longRest' });
  });

  it('defaults what was left out: standard, once, visible, rests 1 and 2, texts trimmed', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: '  Guards  ', start: 3, effect: '  They arrive. ' }));
    expect(s.cd(id)).toMatchObject({ name: 'Guards', kind: 'standard', repeat: 'once', visibility: 'visible', effect: 'They arrive.', activation: '', restTicks: { shortRest: 1, longRest: 2 }, beats: [] });
  });

  it("another module's payload is parsed by the same declaration (newCountdownEvent)", () => {
    const s = table();
    const bad = newCountdownEvent(s.world, { type: 'countdown.create', name: 'x', start: 0 }, seededRng(1));
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'start' } });
    const typo = newCountdownEvent(s.world, { type: 'countdown.create', name: 'x', start: 3, strat: 2 }, seededRng(1));
    expect(typo).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'strat' } });
    const good = newCountdownEvent(s.world, { type: 'countdown.create', name: 'x', start: 3 }, seededRng(1));
    expect(good.ok && good.value.event.type).toBe('countdown.created');
  });
});

describe('chase.create refuses in words naming the field', () => {
  it('a lead not below the die, a blank name', () => {
    const s = table();
    expect(s.fail({ type: 'chase.create', name: 'c', die: 6, lead: 6 })).toMatchObject({ code: 'INVALID_VALUE', path: 'lead', message: 'lead: must be below the die, from 1 to 5' });
    expect(s.fail({ type: 'chase.create', name: ' ', die: 6, lead: 2 })).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    expect(s.fail({ type: 'chase.create', name: 'c', die: 6 })).toMatchObject({ code: 'INVALID_VALUE', path: 'lead', message: 'lead: is required' });
  });

  it('for every die and lead, a lead below the die makes the pair and any other is refused at lead', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), fc.integer({ min: 1, max: 99 }), fc.constantFrom('pursuing', 'escaping'), (die, lead, pcs) => {
        const s = table();
        if (lead >= die) {
          expect(s.fail({ type: 'chase.create', name: 'c', die, lead, pcs }).path).toBe('lead');
          return;
        }
        const chaseId = createdId(s.run({ type: 'chase.create', name: 'c', die, lead, pcs }));
        const chase = getCountdowns(s.world).chases[chaseId]!;
        // 000 "Chase Countdowns": the pursuers start at the die, the escapee at the lead.
        expect(s.cd(chase.progressId).value).toBe(pcs === 'pursuing' ? die : lead);
        expect(s.cd(chase.consequenceId).value).toBe(pcs === 'pursuing' ? lead : die);
      }),
      { numRuns: 60 },
    );
  });
});

describe('dice.roll reads its parsed payload', () => {
  it('a blank label, a notation that is not text, an unknown audience: each named', () => {
    const s = table();
    s.run({ type: 'seat.add', name: 'Ann' });
    expect(s.fail({ type: 'dice.roll', notation: '1d6', label: '  ' })).toMatchObject({ code: 'INVALID_VALUE', path: 'label', message: 'label must have at least 1 character(s)' });
    expect(s.fail({ type: 'dice.roll', notation: 6 })).toMatchObject({ code: 'INVALID_VALUE', path: 'notation', message: 'notation: must be a string' });
    expect(s.fail({ type: 'dice.roll', notation: '1d6', audience: 'everyone' })).toMatchObject({ code: 'INVALID_VALUE', path: 'audience' });
    expect(s.fail({ type: 'dice.roll', notation: '   ' })).toMatchObject({ code: 'INVALID_VALUE', path: 'notation', message: 'notation is empty' });
  });

  it('a label is stored trimmed; the GM roll is the GM\'s', () => {
    const s = table();
    const tx = s.run({ type: 'dice.roll', notation: '1d6', label: '  stealth ', audience: 'gm' });
    expect(tx.kind === 'command' && tx.events[0]).toMatchObject({ type: 'dice.rolled', by: 'gm', label: 'stealth', audience: { kind: 'gm' } });
  });
});

describe('countdown.odds parses its args by its declaration', () => {
  it('a bad arg is INVALID_VALUE naming it, through the engine and called alone', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Wall', kind: 'progress', start: 5 }));
    for (const [args, path] of [
      [{ countdownId: id, difficulty: 0 }, 'difficulty'],
      [{ countdownId: id, modifier: 51 }, 'modifier'],
      [{ countdownId: id, advantage: 1.5 }, 'advantage'],
      [{ countdownId: 7 }, 'countdownId'],
      [{ countdownId: id, odds: 1 }, 'odds'],
    ] as const) {
      const viaEngine = s.engine.query(s.table, PLAYER, 'countdown.odds', args);
      const alone = countdownOddsQuery(s.world, args, GM);
      expect(viaEngine, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path } });
      expect(alone, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path } });
    }
    // The defaults (modifier 0, difficulty 12, no advantage) are the same as naming them.
    expect(countdownOddsQuery(s.world, { countdownId: id }, GM)).toEqual(countdownOddsQuery(s.world, { countdownId: id, modifier: 0, difficulty: 12, advantage: 0 }, GM));
    // The old name still reads (docs/vocabulary.md).
    expect(countdownOddsQuery(s.world, { id }, GM)).toEqual(countdownOddsQuery(s.world, { countdownId: id }, GM));
  });
});
