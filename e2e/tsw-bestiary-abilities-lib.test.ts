// The bestiary entry's one line names a 36th Way block's abilities with their frequency and sustain (review 12 #13).
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { blockLine } from '../packages/web/src/lib/bestiary.ts';

describe('blockLine with abilities', () => {
  it('names each ability with its frequency (the long recharge form too) and any sustain; no list, no words', () => {
    const abilities: Json[] = [{ name: 'Roar', frequency: 'recharge 11+' }, { name: 'Scale Ward', frequency: 'encounter', sustain: 11 }, { name: 'Tail', frequency: { kind: 'recharge', target: 13 } }, { name: 'Bite' }];
    expect(blockLine({ hp: 30, abilities }, '36th-way')).toBe('HP 30 · Abilities: Roar (recharge 11+), Scale Ward (encounter, sustain 11+), Tail (recharge 13+), Bite (at-will)');
    expect(blockLine({ hp: 30, abilities: [] }, '36th-way')).toBe('HP 30');
  });
});
