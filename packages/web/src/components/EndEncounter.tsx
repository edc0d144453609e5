// The GM's "End encounter" button (review 10): ending with a hit, a fortify
// choice or an opportunity attack still waiting asks once first, naming it.
// Loaded on the GM screen only, so the phone's bundle does not carry it.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { encounterOf } from '../lib/encounter.ts';
import { endWarning } from '../lib/hitChoices.ts';
import type { Send } from './types.ts';


export function EndEncounter({ world, send, primary, label = 'End encounter', testId = 'end-encounter' }: { world: World; send: Send; primary: boolean; label?: string; testId?: string }) {
  const enc = encounterOf(world);
  const [asked, setAsked] = useState(false);
  // Any turn change asks afresh.
  useEffect(() => setAsked(false), [enc?.current, enc?.round]);
  const warning = asked ? endWarning(world) : null;
  return (
    <>
      <button class={primary ? 'primary' : ''} onClick={() => (!asked && endWarning(world) !== null ? setAsked(true) : send({ type: 'encounter.end' }))} data-testid={testId}>
        {warning === null ? label : 'End anyway'}
      </button>
      {primary ? (
        // Never a dead end: nobody acting, nothing to choose, and nobody able to act.
        <p class="small" role="status" data-testid="stuck">
          Nobody can act now: heal or revive someone, or end the encounter.
        </p>
      ) : null}
      {warning !== null ? (
        <p class="small" role="alert" data-testid="end-warning">
          {warning}{' '}
          <button class="small" onClick={() => setAsked(false)}>
            Keep fighting
          </button>
        </p>
      ) : null}
    </>
  );
}
// The escalation die's GM controls share this GM-only chunk (LazyPanels).
export { EscalationControls } from './EscalationControls.tsx';
