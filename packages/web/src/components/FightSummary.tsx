// The GM's summary under an ended fight: OSR's own (the engine writes it, with the dying's minute), else the
// shared reading of who fell and who stands (review 11 #11). GM-only and lazy: one chunk for both.
import type { EncounterState, World } from '@tablekeeper/engine';
import { hasPanel } from '@tablekeeper/rulesets/browser';
import type { Ask } from '../lib/attack.ts';
import { fightSummaryLines } from '../lib/fightSummary.ts';
import { OsrFightSummary } from './OsrFight.tsx';
import type { Send } from './types.ts';

export function FightSummary({ world, enc, send, ask }: { world: World; enc: EncounterState; send: Send; ask: Ask | undefined }) {
  if (hasPanel(world.rulesetId, 'fightSummary')) return <OsrFightSummary world={world} send={send} {...(ask !== undefined ? { ask } : {})} />;
  return (
    <p class="small" role="status" data-testid="fight-summary">
      {fightSummaryLines(world, enc).join(' ')}
    </p>
  );
}
