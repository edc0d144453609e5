// A picker whose value is a number (Daggerheart's adversary advantage in words, review 12 #14): the command and its
// odds question get the number, not the text.
import { describe, expect, it } from 'vitest';
import type { TurnAction } from '@tablekeeper/rulesets/browser';
import { initialForm, oddsQueryOf, payloadOf } from '../packages/web/src/lib/actions.ts';

const attack: TurnAction = {
  id: 'adversaryAttack',
  label: 'Attack',
  cost: 'free',
  command: 'daggerheart.adversaryAttack',
  fixed: { attackerId: 'bandit' },
  target: { field: 'targetId', multiple: false, options: [{ value: 'kira', label: 'Kira' }] },
  choices: [{ field: 'advantage', label: 'Advantage', numeric: true, options: [{ value: '0', label: 'none' }, { value: '1', label: 'advantage' }, { value: '-1', label: 'disadvantage' }] }],
  numbers: [],
  flags: [],
  texts: [],
  odds: { query: 'daggerheart.adversaryAttackOdds', args: { attackerId: 'bandit' }, pass: ['targetId', 'advantage'] },
  allowed: true,
  reason: null,
};

describe('a numeric choice', () => {
  it('starts on none (0) and sends -1, 0 or 1 as numbers, in the command and in the odds question', () => {
    const f = initialForm(attack);
    expect(payloadOf(attack, f)).toEqual({ ok: true, value: { attackerId: 'bandit', targetId: 'kira', advantage: 0 } });
    const dis = { ...f, values: { ...f.values, advantage: '-1' } };
    expect(payloadOf(attack, dis)).toEqual({ ok: true, value: { attackerId: 'bandit', targetId: 'kira', advantage: -1 } });
    expect(oddsQueryOf(attack, dis)).toEqual({ name: 'daggerheart.adversaryAttackOdds', args: { attackerId: 'bandit', targetId: 'kira', advantage: -1 } });
  });
  it('a plain choice still sends its text', () => {
    const plain: TurnAction = { ...attack, choices: [{ field: 'trait', label: 'Trait', options: [{ value: 'agility', label: 'Agility' }] }] };
    expect(payloadOf(plain, initialForm(plain))).toEqual({ ok: true, value: { attackerId: 'bandit', targetId: 'kira', trait: 'agility' } });
  });
});
