// A whole night of The 36th Way from the browser (see session.ts): bands
// (002 "Initiative Bands"), the damage box, Dazed for one round, a second
// encounter, undo, rejoin from the recent tables.
import { describe, it } from 'vitest';
import { playNight } from './session.ts';

describe('a night of The 36th Way, by clicking', () => {
  it('two phones, two encounters, a goblin falls and is skipped; the hidden foe never reaches a phone', async () => {
    await playNight({
      rulesetId: '36th-way',
      rest: 'Full rest',
      condition: 'dazed',
      foeInitiative: async (enc) => void (await enc.getByLabel('Band').selectOption('fast')),
      // Builder foes get a 36th Way sheet (review 9), so the sheet's own lines say their HP; phones see no foe numbers.
      lines: { healed: 'Goblin 2 healed 2 HP (by the GM): now 6 HP.', felled: 'Goblin 1 took 7 damage: 7 -> 0 HP (dead).', felledOnPhone: 'Goblin 1 took 7 damage. Goblin 1 is down.' },
    });
  }, 300_000);
});
