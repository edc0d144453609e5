// A whole night of The Kleptonomicon from the browser (see session.ts): the
// Episode opened to Freeplay, Edge Saves rolled by the server against two foe
// groups (004 "Turn Order"), one stack of Slowed, fleeting (004 "Fleeting Conditions"), the Reward phase back to
// Freeplay, a second encounter, undo, rejoin from the recent tables.
import { describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { playNight } from './session.ts';

const toFreeplay = async (gm: Page, first: boolean) => {
  const bar = gm.getByTestId('episode-bar');
  if (first) await bar.getByRole('button', { name: 'Start an Episode' }).click();
  await bar.getByRole('button', { name: 'Go to Freeplay' }).click();
  await bar.getByTestId('episode-hint').waitFor();
};

describe('a night of The Kleptonomicon, by clicking', () => {
  it('two phones, two encounters, a goblin falls and is skipped; the hidden foe never reaches a phone', async () => {
    let n = 0;
    await playNight({
      rulesetId: 'kleptonomicon',
      condition: 'slowed',
      fleeting: true,
      // Goblins are one creature type, the lurker and the wolf their own.
      foeInitiative: async (enc) => {
        const name = await enc.getByLabel('Name').inputValue();
        await enc.getByLabel('Creature type').fill(name.startsWith('Goblin') ? 'Goblin' : `Beast ${++n}`);
      },
      beforeFight: (gm) => toFreeplay(gm, true),
      afterFight: (gm) => toFreeplay(gm, false),
    });
  }, 300_000);
});
