// The condition fields shared by the phone's "Ask the GM" and the GM's row
// tools: the ruleset's catalogue, the table's own saved conditions (ADR 71) or
// a name of one's own, how long it lasts (save ends only where the ruleset
// rolls saves), rounds, and stacks for the GM.
import { useEffect, useState } from 'preact/hooks';
import type { EncounterState } from '@tablekeeper/engine';
import type { SavedCondition } from '@tablekeeper/engine/custom-conditions';
import { pickerDuration, savedChoice, savedFor } from '../lib/customConditions.ts';
import { CUSTOM, durationChoices } from '../lib/turns.ts';

export interface ConditionFieldsProps {
  /** Prefix of the fields' ids (unique on the page). */
  readonly idPrefix: string;
  /** The creature's name in the labels ("Condition for Goblin 3"); none on the phone, whose form names it. */
  readonly forName?: string;
  readonly catalogue: EncounterState['catalogue'];
  /** The table's own conditions, offered after the ruleset's. */
  readonly saved: readonly SavedCondition[];
  readonly choice: string;
  readonly setChoice: (v: string) => void;
  readonly duration: string;
  readonly setDuration: (v: string) => void;
  /** The most rounds the receiving command accepts. */
  readonly maxRounds: number;
  /** Offer a stacks box (the GM's direct apply; a request asks for one stack). */
  readonly stacks?: boolean;
}

/** Form fields named custom, stacks and rounds (read with FormData); the choice and duration are controlled. */
export function ConditionFields(p: ConditionFieldsProps) {
  const id = p.idPrefix;
  const forName = p.forName === undefined ? '' : ` for ${p.forName}`;
  // A fleeting condition (004 Slowed) has the one duration; leaving it for another brings back the usual choices.
  const def = p.catalogue?.conditions.find((d) => d.id === p.choice);
  const fleeting = def?.fleeting === true;
  // Stacks only where they mean something: a stacking condition or one of the GM's own (review 9: "Stacks" beside Concentrating).
  const stacks = p.stacks === true && (def === undefined || def.stacking === 'stack');
  const { duration, setDuration } = p;
  const choices = durationChoices(p.catalogue?.saveEnds === true, fleeting, p.catalogue?.roundless === true);
  // The first choice is the default: a duration the ruleset does not offer (rounds in a spotlight, fleeting for another condition) gives way to it.
  const first = choices[0]![0];
  const offered = choices.some(([v]) => v === duration);
  useEffect(() => {
    if (!offered) setDuration(first);
  }, [offered, first, setDuration]);
  // A saved condition brings its usual duration; the rounds box is re-made with its count.
  const [rounds, setRounds] = useState('1');
  const mine = savedFor(p.saved, p.choice);
  const choose = (v: string) => {
    p.setChoice(v);
    const s = savedFor(p.saved, v);
    if (s === undefined) return;
    const d = pickerDuration(s.duration);
    setDuration(d.duration);
    setRounds(d.rounds);
  };
  return (
    <>
      <label class="sr-only" for={`${id}-cond`}>
        Condition{forName}
      </label>
      <select id={`${id}-cond`} value={p.choice} onChange={(e) => choose(e.currentTarget.value)}>
        {(p.catalogue?.conditions ?? []).map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
        {p.saved.length > 0 ? (
          <optgroup label="This table's conditions">
            {p.saved.map((c) => (
              <option key={c.id} value={savedChoice(c)}>
                {c.name}
              </option>
            ))}
          </optgroup>
        ) : null}
        <option value={CUSTOM}>Other (type a name)</option>
      </select>
      {mine !== undefined && mine.description !== '' ? (
        <span class="small muted" data-testid="condition-description">
          {mine.description}
        </span>
      ) : null}
      {p.choice === CUSTOM ? (
        <>
          <label class="sr-only" for={`${id}-custom`}>
            Name of the condition{forName}
          </label>
          <input id={`${id}-custom`} name="custom" maxLength={40} placeholder="Soaked" style={{ width: '8em' }} />
        </>
      ) : null}
      {stacks ? (
        <>
          <label class="sr-only" for={`${id}-stacks`}>
            Stacks{forName}
          </label>
          <input id={`${id}-stacks`} name="stacks" type="number" min={1} max={99} defaultValue="1" style={{ width: '4.5em' }} />
        </>
      ) : null}
      <label class="sr-only" for={`${id}-dur`}>
        {p.forName === undefined ? 'How long' : `Duration${forName}`}
      </label>
      <select id={`${id}-dur`} value={p.duration} onChange={(e) => p.setDuration(e.currentTarget.value)}>
        {choices.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
      {p.duration === 'rounds' ? (
        <>
          <label class="sr-only" for={`${id}-rounds`}>
            Rounds{forName}
          </label>
          <input key={`${p.choice}-${rounds}`} id={`${id}-rounds`} name="rounds" type="number" min={1} max={p.maxRounds} defaultValue={rounds} style={{ width: '4.5em' }} />
        </>
      ) : null}
    </>
  );
}
