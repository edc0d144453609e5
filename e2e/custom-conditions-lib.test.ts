// The pure part of the table's own conditions in the pickers (ADR 71): the
// choice a saved condition stands for, the duration the picker starts on, the
// words for it, and the save command with its sentences for bad input.
import { describe, expect, it } from 'vitest';
import type { SavedCondition } from '@tablekeeper/engine/custom-conditions';
import { durationWords, pickerDuration, saveConditionCommand, savedChoice, savedFor } from '../packages/web/src/lib/customConditions.ts';

const marked: SavedCondition = { id: 'sc-1', name: 'Marked by the Duke', description: '', duration: { kind: 'rounds', rounds: 3 } };
const hexed: SavedCondition = { id: 'sc-2', name: 'Hexed', description: 'Disadvantage on saves.', duration: { kind: 'turnEnd' } };

describe('saved conditions in the picker', () => {
  it("a saved condition's choice is the kernel's custom condition of its name, and reads back to it", () => {
    expect(savedChoice(marked)).toBe('custom:Marked by the Duke');
    expect(savedFor([marked, hexed], 'custom:Hexed')).toBe(hexed);
    expect(savedFor([marked, hexed], 'custom:Soaked')).toBeUndefined();
    expect(savedFor([marked, hexed], 'concentrating')).toBeUndefined();
  });

  it('starts the picker on the usual duration, with the rounds box filled', () => {
    expect(pickerDuration(marked.duration)).toEqual({ duration: 'rounds', rounds: '3' });
    expect(pickerDuration(hexed.duration)).toEqual({ duration: 'turnEnd', rounds: '1' });
  });

  it('says the duration in words', () => {
    expect(durationWords({ kind: 'rounds', rounds: 1 })).toBe('1 round');
    expect(durationWords(marked.duration)).toBe('3 rounds');
    expect(durationWords({ kind: 'turnEnd' })).toBe('until the end of their next turn');
    expect(durationWords({ kind: 'saveEnds' })).toBe('save ends');
    expect(durationWords({ kind: 'encounterEnd' })).toBe('until the fight ends');
    expect(durationWords({ kind: 'indefinite' })).toBe('until removed');
  });
});

describe('saveConditionCommand', () => {
  it('builds customCondition.save, tidying the name and leaving out an empty description', () => {
    expect(saveConditionCommand({ name: '  Marked  by the Duke ', description: ' ', duration: 'rounds', rounds: '3' })).toEqual({
      ok: true,
      value: { type: 'customCondition.save', name: 'Marked by the Duke', duration: { kind: 'rounds', rounds: 3 } },
    });
    expect(saveConditionCommand({ id: 'sc-2', name: 'Hexed', description: 'Disadvantage on saves.', duration: 'turnEnd', rounds: '' })).toEqual({
      ok: true,
      value: { type: 'customCondition.save', id: 'sc-2', name: 'Hexed', description: 'Disadvantage on saves.', duration: { kind: 'turnEnd' } },
    });
    // A fleeting pick has no clock of its own: kept as "until removed".
    expect(saveConditionCommand({ name: 'Slowed', description: '', duration: 'fleeting', rounds: '' })).toMatchObject({ ok: true, value: { duration: { kind: 'indefinite' } } });
  });

  it('says what to fix: a name, the rounds, a duration, a long description', () => {
    expect(saveConditionCommand({ name: ' ', description: '', duration: 'indefinite', rounds: '' })).toEqual({ ok: false, message: 'Type a name for the condition (up to 40 characters).' });
    expect(saveConditionCommand({ name: 'x'.repeat(41), description: '', duration: 'indefinite', rounds: '' }).ok).toBe(false);
    for (const rounds of ['', '0', '1001', '2.5', 'three']) expect(saveConditionCommand({ name: 'Soaked', description: '', duration: 'rounds', rounds })).toEqual({ ok: false, message: 'Rounds must be a whole number from 1 to 1000.' });
    expect(saveConditionCommand({ name: 'Soaked', description: '', duration: 'someday', rounds: '' })).toEqual({ ok: false, message: 'Choose how long the condition usually lasts.' });
    expect(saveConditionCommand({ name: 'Soaked', description: 'y'.repeat(301), duration: 'indefinite', rounds: '' })).toEqual({ ok: false, message: 'Keep the description to 300 characters.' });
  });
});
