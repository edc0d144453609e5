// A whole night of the OSR game from the browser (see session.ts): DEX order
// (001 "Initiative"), the damage box, Concentrating for one round, a second
// encounter, undo, rejoin from the recent tables; plus a refused link.
import { describe, it } from 'vitest';
import { badLinkSaysSo, playNight } from './session.ts';
import { startE2e } from './harness.ts';

describe('a night of the OSR game, by clicking', () => {
  it('two phones, two encounters, a goblin falls and is skipped; the hidden foe never reaches a phone', async () => {
    await playNight({
      rulesetId: 'osr',
      rest: "A safe night's rest",
      condition: 'concentrating',
      foeInitiative: (enc) => enc.getByLabel('DEX').fill('12'),
      // Builder foes play characters since review 10 (ADR 76): the damage box's lines are the OSR sheet's.
      lines: { healed: 'Goblin 2 heals 2 by magic: HP 4 → 6.', felled: 'Goblin 1 takes 7 damage: HP 7 → 0.', felledOnPhone: 'Goblin 1 takes 7 damage. Goblin 1 is down.' },
    });
  }, 300_000);

  it('a link the server refuses says so after the second refusal, with what to do', async () => {
    const e2e = await startE2e('session-osr-badlink');
    try {
      await badLinkSaysSo(e2e, `${e2e.server.url}/#seat=not-a-real-token-0123456789abcdef`);
    } finally {
      await e2e.close();
    }
  });
});
