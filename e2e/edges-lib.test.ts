// The review 7 edges' pure parts (ADR 57): the condition picker's durations
// where the turn order keeps no rounds, and the action roll the countdown odds
// assume, read from history rather than typed.
import { describe, expect, it } from 'vitest';
import type { EngineEvent, TransactionView } from '@tablekeeper/engine';
import { conditionCommand, durationChoices } from '../packages/web/src/lib/turns.ts';
import { assumedRoll, TYPICAL_ROLL } from '../packages/web/src/lib/countdown-odds.ts';

const GM = { role: 'gm' } as TransactionView['actor'];
const tx = (seq: number, events: EngineEvent[], kind: TransactionView['kind'] = 'command', target?: number): TransactionView => ({ seq, kind, actor: GM, label: 'x', events, ...(target === undefined ? {} : { target }) });
const rolled = (modifier: number, difficulty: number | undefined): EngineEvent => ({ type: 'daggerheart.actionRolled', roll: { hope: 8, fear: 9, modifier, total: 17 + modifier, ...(difficulty === undefined ? {} : { difficulty }) } });

describe('condition durations without rounds', () => {
  it('a spotlight offers "until removed" first, then the conflict\'s end; never rounds or turns; the command is until removed', () => {
    expect(durationChoices(false, false, true)).toEqual([
      ['indefinite', 'until removed'],
      ['encounterEnd', 'until the conflict ends'],
    ]);
    expect(durationChoices(false).map(([v]) => v)).toEqual(['rounds', 'turnEnd', 'encounterEnd', 'indefinite']);
    // A fleeting condition keeps its one rule whatever the turn order.
    expect(durationChoices(false, true, true).map(([v]) => v)).toEqual(['fleeting']);
    expect(conditionCommand('ogre', { choice: 'vulnerable', custom: '', duration: 'indefinite', rounds: '', stacks: '' })).toEqual({ ok: true, value: { type: 'condition.apply', targetId: 'ogre', condition: 'vulnerable', duration: { kind: 'indefinite' } } });
  });
});

describe('the roll the countdown odds assume', () => {
  it('a typical +2 vs 12 until a roll is made, then the last roll seen (+1 vs 10); an undone roll no longer counts, a redone one does', () => {
    expect(assumedRoll([])).toEqual({ source: TYPICAL_ROLL, words: 'a typical action roll, +2 vs difficulty 12, until one is made' });
    const h = [tx(1, [rolled(3, 14)]), tx(2, [{ type: 'countdown.ticked' }]), tx(3, [rolled(1, 10), { type: 'daggerheart.hopeGained' }])];
    expect(assumedRoll(h)).toEqual({ source: { modifier: 1, difficulty: 10 }, words: 'the last action roll: +1 vs difficulty 10' });
    const undone = [...h, tx(4, [], 'undo', 3)];
    expect(assumedRoll(undone).source).toEqual({ modifier: 3, difficulty: 14 });
    expect(assumedRoll([...undone, tx(5, [], 'redo', 3)]).source).toEqual({ modifier: 1, difficulty: 10 });
    expect(assumedRoll([tx(1, [rolled(-2, 15)])]).words).toBe('the last action roll: −2 vs difficulty 15');
  });

  it('a roll whose difficulty this viewer may not see is skipped (a phone reading a hidden difficulty)', () => {
    expect(assumedRoll([tx(1, [rolled(0, 11)]), tx(2, [rolled(2, undefined)])]).source).toEqual({ modifier: 0, difficulty: 11 });
    expect(assumedRoll([tx(1, [rolled(2, undefined)])]).source).toEqual(TYPICAL_ROLL);
  });
});
