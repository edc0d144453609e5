// The GM's damage box for the sheets the rules keep HP on (the 36th Way, teams),
// the same sheet a fight reads: each character's numbers and the tracker's own
// box, for a trap, a potion or a fall. Between fights (ADR 110) it lists them
// all, under the encounter builder; while a fight runs (ADR 119) those the fight
// does not hold, under the tracker. GM only: it loads with the builder or the
// sheet editor, never with a phone.
import type { EncounterState, World } from '@tablekeeper/engine';
import { keptSheetRulesOf } from '@tablekeeper/rulesets/browser';
import { tracksOf } from '../lib/encounter.ts';
import { outsideTheFight } from '../lib/keptParty.ts';
import { sheetTrackOf } from '../lib/sheetTrack.ts';
import { DamageBox } from './GmRow.tsx';
import type { Send } from './types.ts';

/** `fight`: the running fight, whose own combatants are left to their tracker rows; absent between fights. */
export function BetweenFights({ world, send, fight }: { world: World; send: Send; fight?: EncounterState }) {
  if (keptSheetRulesOf(world.rulesetId) === null) return null;
  const party = outsideTheFight(world, fight ?? null);
  if (party.length === 0) return null;
  const where = fight === undefined ? 'between' : 'outside';
  return (
    <fieldset class="stack small" data-testid={fight === undefined ? 'between-fights' : 'outside-fight'}>
      <legend>{fight === undefined ? 'Between fights' : 'Not in this fight'}: damage or heal a character</legend>
      {party.map(({ ch, sheetId }) => (
        <div key={ch.id} data-testid={`${where}-${ch.name}`}>
          <strong>{ch.name}</strong>{' '}
          {tracksOf(sheetTrackOf(world, { id: sheetId, characterId: ch.id }), world.rulesetId)
            .map((t) => `${t.label} ${t.value}/${t.max}${t.states.length > 0 ? ` (${t.states.join(', ')})` : ''}`)
            .join(' · ')}
          <DamageBox c={{ id: sheetId, name: ch.name }} world={world} send={send} />
        </div>
      ))}
    </fieldset>
  );
}
