// The builder's surprise round (002 "Surprise and Ambushes", 003 "Surprise"):
// shown only where the ruleset's initiative declares one. The GM picks the
// ambushing side and, where the text says two of them act, which two.
import { ambushEscalationOf, surpriseCandidates, surpriseSides, surpriseWords, unsurprisedCandidates, NO_SURPRISE, type SurpriseChoice } from '../lib/surprise.ts';
import type { Draft, InitiativeMethod } from '../lib/initiative.ts';

export function SurprisePicker({ method, rows, choice, onChange }: { method: InitiativeMethod | null; rows: readonly Draft[]; choice: SurpriseChoice; onChange: (c: SurpriseChoice) => void }) {
  const rule = method?.surprise ?? null;
  const sides = surpriseSides(method, rows);
  if (rule === null || sides.length < 2) return null;
  const side = sides.some((s) => s.side === choice.side) ? choice.side : '';
  const candidates = side === '' || rule.pick !== 'actors' ? [] : surpriseCandidates(method, rows, side);
  const said = surpriseWords(method, rows, choice);
  const awake = unsurprisedCandidates(method, rows, side);
  const unsurprised = choice.unsurprised ?? [];
  const shift = ambushEscalationOf(method, side);
  return (
    <fieldset class="small" data-testid="surprise">
      <legend>Surprise round</legend>
      <span class="inline-field">
        <label for="build-surprise">Who ambushes</label>
        <select id="build-surprise" value={side} aria-describedby="build-surprise-help" onChange={(e) => onChange(e.currentTarget.value === '' ? NO_SURPRISE : { side: e.currentTarget.value, actors: [] })}>
          <option value="">nobody: no surprise round</option>
          {sides.map((s) => (
            <option key={s.side} value={s.side}>
              {s.label}
            </option>
          ))}
        </select>
      </span>
      {candidates.length > 0 ? (
        <div role="group" aria-label={`Who acts in the surprise round (up to ${rule.most})`}>
          {candidates.map((d) => {
            const on = choice.actors.includes(d.id);
            return (
              <label key={d.id} class="row" style={{ fontWeight: 400 }}>
                <input
                  type="checkbox"
                  style={{ minHeight: 'auto' }}
                  checked={on}
                  // The text lets only so many act: a further one is refused here, not by the server.
                  disabled={!on && choice.actors.length >= rule.most}
                  onChange={(e) => onChange({ ...choice, side, actors: e.currentTarget.checked ? [...choice.actors, d.id] : choice.actors.filter((x) => x !== d.id) })}
                />{' '}
                {d.name} acts
              </label>
            );
          })}
        </div>
      ) : null}
      {awake.length > 0 ? (
        <div role="group" aria-label="Who cannot be surprised (acts in the surprise round anyway)">
          {awake.map((d) => (
            <label key={d.id} class="row" style={{ fontWeight: 400 }}>
              <input
                type="checkbox"
                style={{ minHeight: 'auto' }}
                checked={unsurprised.includes(d.id)}
                onChange={(e) => onChange({ ...choice, unsurprised: e.currentTarget.checked ? [...unsurprised, d.id] : unsurprised.filter((x) => x !== d.id) })}
              />{' '}
              {d.name} cannot be surprised
            </label>
          ))}
        </div>
      ) : null}
      {shift !== null ? (
        <label class="row" style={{ fontWeight: 400 }}>
          <input type="checkbox" style={{ minHeight: 'auto' }} checked={choice.escalation === true} onChange={(e) => onChange({ ...choice, escalation: e.currentTarget.checked })} /> Start the escalation die at {shift} in round 1 (an ambush by the party, {rule.source})
        </label>
      ) : null}
      <span id="build-surprise-help" class="small muted" data-testid="surprise-help">
        {said ?? `${rule.why} (${rule.source})`}
      </span>
    </fieldset>
  );
}
