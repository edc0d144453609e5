// Between fights on the GM screen (ADR 110): where the rules keep HP on a sheet
// of their own (the 36th Way, teams), the same sheet a fight reads, each PC's
// numbers and the damage box, for a trap, a potion or a fall with no fight
// running. GM only: it loads with the encounter builder.
import type { World } from '@tablekeeper/engine';
import { keptSheetIdOf, keptSheetRulesOf } from '@tablekeeper/rulesets/browser';
import { tracksOf } from '../lib/encounter.ts';
import { sheetTrackOf } from '../lib/sheetTrack.ts';
import { DamageBox } from './GmRow.tsx';
import type { Send } from './types.ts';

export function BetweenFights({ world, send }: { world: World; send: Send }) {
  if (keptSheetRulesOf(world.rulesetId) === null) return null;
  const party = Object.values(world.characters).flatMap((ch) => {
    const sheetId = ch.kind === 'pc' ? keptSheetIdOf(world, ch.id) : null;
    return sheetId === null ? [] : [{ ch, sheetId }];
  });
  if (party.length === 0) return null;
  return (
    <fieldset class="stack small" data-testid="between-fights">
      <legend>Between fights: damage or heal a PC</legend>
      {party.map(({ ch, sheetId }) => (
        <div key={ch.id} data-testid={`between-${ch.name}`}>
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
