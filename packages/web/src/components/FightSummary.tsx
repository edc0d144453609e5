// The GM's summary under an ended fight for rulesets that write none of their own (review 11 #11); GM-only, lazy.
import type { EncounterState, World } from '@tablekeeper/engine';
import { fightSummaryLines } from '../lib/fightSummary.ts';

export function FightSummary({ world, enc }: { world: World; enc: EncounterState }) {
  return (
    <p class="small" role="status" data-testid="fight-summary">
      {fightSummaryLines(world, enc).join(' ')}
    </p>
  );
}
