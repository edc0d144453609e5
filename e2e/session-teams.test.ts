// A whole night of the team game from the browser (see session.ts): teams
// alternate (003 "Initiative and Rounds"), N takes each team's pick, the
// damage box, Guarding for one round, a second encounter, undo, rejoin.
import { describe, it } from 'vitest';
import { playNight } from './session.ts';

describe('a night of the team game, by clicking', () => {
  it('two phones, two encounters, a goblin falls and is skipped; the hidden foe never reaches a phone', async () => {
    await playNight({
      rulesetId: 'teams',
      condition: 'guarding',
      firstTeam: 'Party',
      inviteNeeds: { Endurance: '10', Stamina: '2', Constitution: '4', Evasion: '6' },
      foeInitiative: (enc) => enc.getByLabel('Team').fill('Goblins'),
    });
  }, 300_000);
});
