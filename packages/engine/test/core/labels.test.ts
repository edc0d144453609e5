// Undo and history labels: a handler's own label, else the command type in words.
import { describe, expect, it } from 'vitest';
import { commandWords, ok, scenario, type Module } from '../../src/core/index.js';

describe('command labels', () => {
  it('a command type without a label reads as words, without its module prefix', () => {
    expect(commandWords('kleptonomicon.closingCredits')).toBe('closing credits');
    expect(commandWords('36th-way.sheet.set')).toBe('sheet set');
    expect(commandWords('teams.act')).toBe('act');
    expect(commandWords('osr.rollToReturn')).toBe('roll to return');
    expect(commandWords('ping')).toBe('ping');
    expect(commandWords('x.')).toBe('x.');
  });

  it('the undo button and the history use the handler label when there is one, the words otherwise', () => {
    const mod: Module = {
      id: 'm',
      commands: {
        'm.ringTheBell': { decide: () => ok([{ type: 'm.rang' }]) },
        'm.light': { label: 'light the lamp', decide: () => ok([{ type: 'm.lit' }]) },
      },
      reducers: { 'm.rang': (w) => w, 'm.lit': (w) => w },
    };
    const s = scenario([mod]);
    s.run({ type: 'm.ringTheBell' });
    expect(s.view({ role: 'gm' })).toMatchObject({ canUndo: true, undoLabel: 'ring the bell' });
    s.run({ type: 'm.light' });
    expect(s.view({ role: 'gm' }).undoLabel).toBe('light the lamp');
    expect(s.view({ role: 'gm' }).history.map((h) => h.label).slice(-2)).toEqual(['ring the bell', 'light the lamp']);
  });
});
