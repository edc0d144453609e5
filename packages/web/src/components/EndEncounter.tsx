// The GM's "End encounter" button (review 10): ending with a hit, a fortify
// choice or an opportunity attack still waiting asks once first, naming it.
// The click writes the fight's summary to the log in its own step, and the
// conditions the end leaves on are listed beside it with a one-click clear (ADR 90).
// Loaded on the GM screen only, so the phone's bundle does not carry it.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { encounterOf } from '../lib/encounter.ts';
import { endCommands, outlastingConditions } from '../lib/fightSummary.ts';
import { oneStep } from '../lib/foes.ts';
import { endWarning } from '../lib/hitChoices.ts';
import type { Send } from './types.ts';

export function EndEncounter({ world, send, primary, label = 'End encounter', testId = 'end-encounter' }: { world: World; send: Send; primary: boolean; label?: string; testId?: string }) {
  const enc = encounterOf(world);
  const [asked, setAsked] = useState(false);
  // Any turn change asks afresh.
  useEffect(() => setAsked(false), [enc?.current, enc?.round]);
  const warning = asked ? endWarning(world) : null;
  const outlasting = enc !== null && enc.active ? outlastingConditions(world, enc) : [];
  const clearable = outlasting.filter((o) => o.clearable).map((o) => o.conditionId);
  const end = (clear: readonly string[]) => {
    if (enc === null) return;
    if (!asked && endWarning(world) !== null) return setAsked(true);
    void send(oneStep(endCommands(world, enc, clear)));
  };
  return (
    <>
      <button class={primary ? 'primary' : ''} onClick={() => end([])} data-testid={testId}>
        {warning === null ? label : 'End anyway'}
      </button>
      {clearable.length > 0 ? (
        <button class="small" onClick={() => end(clearable)} data-testid="end-and-clear">
          Clear {clearable.length === 1 ? 'it' : `these ${clearable.length}`} and end
        </button>
      ) : null}
      {outlasting.length > 0 ? (
        // No rule text ends a condition with the fight (ADR 57, 90): what stays is said before the click.
        <p class="small muted" data-testid="end-outlasting">
          Still on after the fight: {outlasting.map((o) => `${o.name}: ${o.condition} (${o.lasts})`).join(', ')}.
        </p>
      ) : null}
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
