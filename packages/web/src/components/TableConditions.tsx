// The table's own conditions (issue 20, ADR 71): the GM's list of conditions
// saved for this table, each with what it means and how long it usually
// lasts, to add, edit and remove. Every condition picker at the table offers
// them. GM screen only (loaded lazily); phones read the list from their view.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { savedConditions, type SavedCondition } from '@tablekeeper/engine/custom-conditions';
import { durationWords, pickerDuration, saveConditionCommand } from '../lib/customConditions.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { durationChoices } from '../lib/turns.ts';
import { sentenceOf } from '../lib/words.ts';
import type { Send } from './types.ts';

export function TableConditions({ world, send }: { world: World; send: Send }) {
  const saved = savedConditions(world);
  const [editing, setEditing] = useState<SavedCondition | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const remove = async (c: SavedCondition) => {
    const r = await send({ type: 'customCondition.remove', id: c.id });
    setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
    if (r.ok && editing?.id === c.id) setEditing(null);
  };
  return (
    <details class="panel area-bestiary" data-testid="table-conditions">
      <summary>This table's conditions ({saved.length})</summary>
      <p class="small muted">Conditions of your own, offered in every condition picker at this table (players' requests too). Creatures that have one keep it if you edit or remove it here.</p>
      {saved.length === 0 ? (
        <p class="small muted">None yet.</p>
      ) : (
        <ul aria-label="This table's conditions" class="list">
          {saved.map((c) => (
            <li key={c.id} class="row">
              <strong>{c.name}</strong>
              <span class="small">{durationWords(c.duration)}</span>
              {c.description === '' ? null : <span class="small muted">{c.description}</span>}
              <button class="small" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                Edit
              </button>
              <button class="small" aria-label={`Remove ${c.name}`} onClick={() => void remove(c)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {msg === null ? null : (
        <p class="error small" role="alert">
          {msg}
        </p>
      )}
      <ConditionForm key={editing?.id ?? 'new'} world={world} send={send} editing={editing} done={() => setEditing(null)} />
    </details>
  );
}

function ConditionForm({ world, send, editing, done }: { world: World; send: Send; editing: SavedCondition | null; done: () => void }) {
  const catalogue = encounterOf(world)?.catalogue;
  const choices = durationChoices(catalogue?.saveEnds === true, false, catalogue?.roundless === true);
  const start = editing === null ? { duration: choices[0]![0], rounds: '1' } : pickerDuration(editing.duration);
  const [dur, setDur] = useState(start.duration);
  const [msg, setMsg] = useState<string | null>(null);
  // A saved duration this ruleset does not offer (save ends without saves) is still shown, so editing never changes it silently.
  const offered = choices.some(([v]) => v === dur) ? choices : [...choices, [dur, dur === 'saveEnds' ? 'save ends' : dur] as [string, string]];
  const title = editing === null ? 'Save a condition for this table' : `Edit ${editing.name}`;
  return (
    <form
      aria-label={title}
      class="row"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const f = new FormData(form);
        const cmd = saveConditionCommand({
          ...(editing === null ? {} : { id: editing.id }),
          name: String(f.get('name') ?? ''),
          description: String(f.get('description') ?? ''),
          duration: dur,
          rounds: String(f.get('rounds') ?? ''),
        });
        if (!cmd.ok) return setMsg(cmd.message);
        const r = await send(cmd.value);
        if (!r.ok) return setMsg(sentenceOf(r.rejection, namesOf(world)));
        setMsg(null);
        if (editing === null) form.reset();
        else done();
      }}
    >
      <label>
        Name <input name="name" required maxLength={40} defaultValue={editing?.name ?? ''} style={{ width: '12em' }} />
      </label>
      <label>
        What it means <input name="description" maxLength={300} defaultValue={editing?.description ?? ''} style={{ width: '18em' }} />
      </label>
      <label>
        Usually lasts{' '}
        <select name="duration" value={dur} onChange={(e) => setDur(e.currentTarget.value)}>
          {offered.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {dur === 'rounds' ? (
        <label>
          Rounds <input name="rounds" type="number" min={1} max={1000} defaultValue={start.rounds} style={{ width: '5em' }} />
        </label>
      ) : null}
      <button class="small" type="submit">
        {editing === null ? 'Save condition' : 'Save changes'}
      </button>
      {editing === null ? null : (
        <button class="small" type="button" onClick={done}>
          Cancel
        </button>
      )}
      {msg === null ? null : (
        <span class="error small" role="alert">
          {msg}
        </span>
      )}
    </form>
  );
}
