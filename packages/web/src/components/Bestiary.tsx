// The GM's bestiary (issue 20): stat blocks as forms from the ruleset's own
// schema (bestiary.save in the catalogue), foes added from them ("Goblin" x6,
// hidden or not), the ruleset's starters, a bestiary file to export and
// import, and encounter templates. Loaded only on the GM screen: the player
// view never downloads it, and the server never sends a player the bestiary.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { BestiaryEntry, EncounterState, World } from '@tablekeeper/engine';
import { capabilitiesOf, groupNames, startersOf } from '@tablekeeper/rulesets/browser';
import { listCommands } from '../net/api.ts';
import { encounterOf, namesOf, displayOrder } from '../lib/encounter.ts';
import { addCommands, initiativeOf } from '../lib/initiative.ts';
import { adversariesCommand, blockLine, draftsFromEntry, draftsFromTemplate, entriesOf, exportText, hasLineUp, importPathWords, linesFromDrafts, missingStarters, linesFromEncounter, parseBestiaryFile, renumberedPlain, templateLine, templatesOf, type FileEntry } from '../lib/bestiary.ts';
import { builderRows, lineupRequest } from '../lib/lineup.ts';
import { characterAdder, foeSheetCommands, oneStep, withFoeCharacters } from '../lib/foes.ts';
import { fieldsOf, formValuesFrom, refusalInWords, withoutFields, type FormValue, type JsonSchema } from '../lib/schemaForm.ts';
import { sentenceOf } from '../lib/words.ts';
import { optionsFrom } from './Commands.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import type { Rejection } from '../net/codec.ts';
import type { Send } from './types.ts';

type Note = { readonly kind: 'ok' | 'error'; readonly text: string } | null;

export function BestiaryPanel({ world, send }: { world: World; send: Send }) {
  const [schema, setSchema] = useState<JsonSchema | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    let live = true;
    void listCommands(world.rulesetId).then((r) => {
      if (!live) return;
      const save = r.ok ? r.value.find((e) => e.type === 'bestiary.save') : undefined;
      if (save !== undefined) setSchema(withoutFields(save.schema, ['id']));
      else setLoadError(r.ok ? 'This table has no bestiary.' : r.message);
    });
    return () => {
      live = false;
    };
  }, [world.rulesetId]);
  const entries = entriesOf(world);
  const enc = encounterOf(world);
  const latest = useRef(world);
  latest.current = world;
  const method = initiativeOf(world.rulesetId);
  const starters = startersOf(world.rulesetId);
  const useOptions = useCallback((ref: string) => optionsFrom(world, ref), [world]);
  // The field's path tells which box to fix ("hp", not "block.hp").
  const refused = (r: Rejection) => sentenceOf(r, namesOf(world)) + (r.path !== undefined && r.ruleCode === 'INVALID_VALUE' ? ` (${r.path.replace(/^block\./, '')})` : '');
  // A stat block form's refusal names the field as the form labels it (review 9: never a path).
  const refusedForm = (r: Rejection, payload: { readonly [k: string]: unknown }) =>
    schema === null ? refused(r) : refusalInWords(fieldsOf(schema), payload as { readonly [k: string]: FormValue }, r, (message) => sentenceOf({ ...r, message }, namesOf(world)));

  const addFoes = async (entry: BestiaryEntry, count: number, hidden: boolean) => {
    if (daggerheart) return addAdversaries(entry, count, hidden);
    // Numbers never restart or repeat: the fight's (or the last fight's) creatures, the foes' characters and the line-up all count.
    const fought = enc === null ? [] : Object.values(enc.combatants).map((c) => c.name);
    const npcs = Object.values(world.characters).filter((c) => c.kind !== 'pc').map((c) => c.name);
    const lined = enc?.active === true ? [] : builderRows.value.map((r) => r.name);
    const taken = [...fought, ...npcs, ...lined];
    const d = draftsFromEntry(method, entry, count, hidden, undefined, taken);
    if (!d.ok) return setNote({ kind: 'error', text: d.message });
    const names = d.value.length === 1 ? d.value[0]!.name : `${d.value[0]!.name} to ${d.value.at(-1)!.name}`;
    if (enc?.active === true) {
      // Each foe gets what its ruleset's attack reads (an OSR character, a 36th Way or teams sheet), so it is a target.
      const ready = await withFoeCharacters(world.rulesetId, d.value, characterAdder(send, () => latest.current, (r) => sentenceOf(r)));
      if (!ready.ok) return setNote({ kind: 'error', text: ready.message });
      // The group's adds and sheets are one change: one Undo takes the group back (ADR 70).
      const r = await send(oneStep([...addCommands(method, ready.value, enc, latest.current.characters), ...foeSheetCommands(ready.value, latest.current)]));
      if (!r.ok) return setNote({ kind: 'error', text: refused(r.rejection) });
      return setNote({ kind: 'ok', text: `${names} joined the encounter${hidden ? ', hidden' : ''}.` });
    }
    if (builderRows.value.length + d.value.length > 200) return setNote({ kind: 'error', text: 'An encounter may have at most 200 combatants.' });
    // A lone "Rat-thief" still in the line-up becomes Rat-thief 1 beside the new Rat-thief 2 (a fighting one keeps its name).
    const rename = renumberedPlain(entry.name, lined);
    lineupRequest.value = { drafts: d.value, replace: false, ...(rename !== null ? { rename: { from: entry.name, to: rename } } : {}) };
    setNote({ kind: 'ok', text: `${names} lined up for the next encounter${hidden ? ', hidden' : ''}.` });
  };

  // Daggerheart's adversaries are characters with thresholds: its own command makes them (and joins them to a running conflict).
  const daggerheart = capabilitiesOf(world.rulesetId).foesFromStatBlocks;
  const addAdversaries = async (entry: BestiaryEntry, count: number, hidden: boolean) => {
    const cmd = adversariesCommand(entry, count, hidden);
    if (!cmd.ok) return setNote({ kind: 'error', text: cmd.message });
    // The server numbers a second group on from the first (Bandit 4 after Bandit 1-3); the note names the same.
    const names = groupNames(entry.name, count, Object.values(latest.current.characters).map((c) => c.name));
    const r = await send(cmd.value);
    if (!r.ok) return setNote({ kind: 'error', text: refused(r.rejection) });
    setNote({ kind: 'ok', text: `${names.length === 1 ? names[0]! : `${names[0]!} to ${names.at(-1)!}`} joined the adversaries${hidden ? ', hidden' : ''}.` });
  };

  const importEntries = async (list: readonly FileEntry[], what: string) => {
    const r = await send({ type: 'bestiary.import', entries: list as never });
    if (r.ok) return setNote({ kind: 'ok', text: `${what}: ${list.length} stat block${list.length === 1 ? '' : 's'} added.` });
    const where = importPathWords(r.rejection.path, list);
    setNote({ kind: 'error', text: `${where !== '' ? `${where}: ` : ''}${sentenceOf(r.rejection, {})}` });
  };

  return (
    <section class="panel area-bestiary" aria-labelledby="bestiary-h" data-testid="bestiary">
      <h2 id="bestiary-h">Bestiary</h2>
      <p class="small muted">Stat blocks for this table, seen by you alone. Add foes from them to the encounter, in groups.</p>
      {entries.length === 0 ? <p class="small muted">No stat blocks yet.</p> : null}
      <ul class="bestiary-list" aria-label="Stat blocks" data-testid="bestiary-list">
        {entries.map((e) => (
          <EntryRow key={e.id} entry={e} rulesetId={world.rulesetId} addLabel={daggerheart ? `Add ${e.name} as adversaries` : enc?.active === true ? `Add ${e.name} to the fight` : `Line up ${e.name}`} onAdd={addFoes} onEdit={() => setEditing(editing === e.id ? null : e.id)} editing={editing === e.id} onRemove={async () => {
            const r = await send({ type: 'bestiary.remove', id: e.id });
            setNote(r.ok ? { kind: 'ok', text: `${e.name} is out of the bestiary.` } : { kind: 'error', text: refused(r.rejection) });
          }}>
            {editing === e.id && schema !== null ? (
              <SchemaForm
                key={`edit-${e.id}`}
                schema={schema}
                idPrefix={`be-edit-${e.id}`}
                initial={formValuesFrom(fieldsOf(schema), { name: e.name, notes: e.notes, block: e.block })}
                useOptions={useOptions}
                submitLabel={`Save ${e.name}`}
                onSubmit={async (payload) => {
                  const r = await send({ type: 'bestiary.save', id: e.id, ...(payload as object) });
                  if (!r.ok) return refusedForm(r.rejection, payload);
                  setEditing(null);
                  setNote({ kind: 'ok', text: `Saved ${String(payload['name'])}.` });
                  return null;
                }}
              />
            ) : null}
          </EntryRow>
        ))}
      </ul>
      <details data-testid="bestiary-new">
        <summary>New stat block</summary>
        {loadError !== null ? <p role="alert">The form could not be loaded: {loadError}</p> : null}
        {schema === null && loadError === null ? <p role="status">Loading the form…</p> : null}
        {schema !== null ? (
          <SchemaForm
            key={formKey}
            schema={schema}
            idPrefix="be-new"
            useOptions={useOptions}
            submitLabel="Save stat block"
            onSubmit={async (payload) => {
              const r = await send({ type: 'bestiary.save', ...(payload as object) });
              if (!r.ok) return refusedForm(r.rejection, payload);
              setFormKey((k) => k + 1);
              setNote({ kind: 'ok', text: `${String(payload['name'])} is in the bestiary.` });
              return null;
            }}
          />
        ) : null}
      </details>
      <div class="row small">
        {starters.entries.length > 0 ? (
          <button
            type="button"
            onClick={() => {
              // Pressed twice, it adds only what is missing (by name), and says when all are there.
              const missing = missingStarters(starters.entries, entries);
              if (missing.length === 0) return setNote({ kind: 'ok', text: `The starter foes are already in the bestiary (${starters.entries.map((s) => s.name).join(', ')}).` });
              void importEntries(missing, 'Starters');
            }}
          >
            Add the starter foes ({starters.entries.map((s) => s.name).join(', ')})
          </button>
        ) : null}
        <span class="muted" data-testid="starters-note">
          {starters.note}
        </span>
      </div>
      <FileTools world={world} count={entries.length} onImport={(list) => void importEntries(list, 'Imported')} onProblem={(text) => setNote({ kind: 'error', text })} />
      <Templates world={world} enc={enc} send={send} onNote={setNote} />
      <p role={note?.kind === 'error' ? 'alert' : 'status'} class={note?.kind === 'error' ? 'error small' : 'small'} data-testid="bestiary-note">
        {note?.text ?? ''}
      </p>
    </section>
  );
}

function EntryRow(props: { entry: BestiaryEntry; rulesetId: string; addLabel: string; editing: boolean; onAdd: (e: BestiaryEntry, count: number, hidden: boolean) => Promise<unknown>; onEdit: () => void; onRemove: () => Promise<unknown>; children?: preact.ComponentChildren }) {
  const { entry: e } = props;
  const [count, setCount] = useState('1');
  const [hidden, setHidden] = useState(false);
  const base = `be-${e.id}`;
  return (
    <li data-testid="bestiary-entry">
      <div>
        <strong>{e.name}</strong> <span class="small muted">{blockLine(e.block, props.rulesetId)}</span>
        {e.notes !== '' ? <p class="small muted" style={{ margin: 0 }}>{e.notes}</p> : null}
      </div>
      <form
        class="row small"
        aria-label={`Add ${e.name}`}
        onSubmit={(ev) => {
          ev.preventDefault();
          void props.onAdd(e, Number(count), hidden);
        }}
      >
        <span class="inline-field">
          <label for={`${base}-count`}>How many</label>
          <input id={`${base}-count`} type="number" min={1} max={50} step={1} value={count} style={{ width: '4.5em' }} onInput={(ev) => setCount(ev.currentTarget.value)} />
        </span>
        <label class="row" style={{ fontWeight: 400 }}>
          <input type="checkbox" checked={hidden} onChange={(ev) => setHidden(ev.currentTarget.checked)} style={{ minHeight: 'auto' }} /> hidden
        </label>
        <button type="submit">{props.addLabel}</button>
        <button type="button" aria-expanded={props.editing} onClick={props.onEdit} aria-label={`Edit ${e.name}`}>
          Edit
        </button>
        <button type="button" onClick={() => void props.onRemove()} aria-label={`Remove ${e.name} from the bestiary`}>
          Remove
        </button>
      </form>
      {props.children}
    </li>
  );
}

function FileTools({ world, count, onImport, onProblem }: { world: World; count: number; onImport: (list: FileEntry[]) => void; onProblem: (text: string) => void }) {
  const download = () => {
    const blob = new Blob([exportText(world)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `bestiary-${world.rulesetId}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <div class="row small" style={{ marginTop: '6px' }}>
      <button type="button" disabled={count === 0} onClick={download} data-testid="bestiary-export">
        Export bestiary
      </button>
      <span class="inline-field">
        <label for="bestiary-import">Import a bestiary file</label>
        <input
          id="bestiary-import"
          type="file"
          accept="application/json,.json"
          onChange={async (ev) => {
            const input = ev.currentTarget;
            const file = input.files?.[0];
            input.value = '';
            if (file === undefined) return;
            if (file.size > 512 * 1024) return onProblem('That file is too large to be a bestiary file.');
            const parsed = parseBestiaryFile(await file.text(), world.rulesetId);
            if (!parsed.ok) return onProblem(parsed.errors.join(' '));
            onImport(parsed.entries);
          }}
        />
      </span>
    </div>
  );
}

function Templates({ world, enc, send, onNote }: { world: World; enc: EncounterState | null; send: Send; onNote: (n: Note) => void }) {
  const [name, setName] = useState('');
  const templates = templatesOf(world);
  const method = initiativeOf(world.rulesetId);
  const running = enc?.active === true;
  // A running fight's line-up, or the builder's rows between fights.
  // Before a Daggerheart conflict, the builder's rows are the Spotlight panel's ticked line-up (review 13 #9).
  const lines = useMemo(() => (running && hasLineUp(enc) ? linesFromEncounter(method, displayOrder(enc), entriesOf(world)) : linesFromDrafts(builderRows.value, method)), [running, enc, builderRows.value, method, world]);
  const save = async () => {
    const n = name.trim();
    if (n === '') return onNote({ kind: 'error', text: 'Name the template first.' });
    if (lines.length === 0) return onNote({ kind: 'error', text: 'Line up the encounter first: there is nobody to save.' });
    const r = await send({ type: 'bestiary.saveTemplate', name: n, lines: lines as never });
    if (!r.ok) return onNote({ kind: 'error', text: sentenceOf(r.rejection, namesOf(world)) });
    setName('');
    onNote({ kind: 'ok', text: `Template "${n}" saved.` });
  };
  return (
    <div data-testid="templates" style={{ borderTop: '1px solid var(--border)', marginTop: '8px', paddingTop: '4px' }}>
      <h3 class="small" style={{ margin: '4px 0' }}>
        Encounter templates
      </h3>
      <form
        class="row small"
        aria-label="Save the line-up as a template"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <span class="inline-field">
          <label for="template-name">Template name</label>
          <input id="template-name" maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </span>
        <button type="submit">{running ? "Save this fight's line-up" : 'Save the line-up'}</button>
      </form>
      {templates.length === 0 ? <p class="small muted">No templates yet.</p> : null}
      <ul aria-label="Encounter templates" class="small" data-testid="template-list">
        {templates.map((t) => (
          <li key={t.id}>
            <strong>{t.name}</strong> <span class="muted">{templateLine(t)}</span>{' '}
            <button
              type="button"
              disabled={running}
              title={running ? 'End the encounter first' : undefined}
              aria-label={`Use ${t.name}`}
              onClick={() => {
                const { drafts, skipped } = draftsFromTemplate(method, t, world);
                lineupRequest.value = { drafts, replace: true };
                onNote({ kind: 'ok', text: `${t.name} is lined up: press ${capabilitiesOf(world.rulesetId).spotlightTurns ? 'Start a conflict' : 'Roll initiative'} to start.${skipped.length > 0 ? ` Left out (no longer at the table): ${skipped.join(', ')}.` : ''}` });
              }}
            >
              Use
            </button>{' '}
            <button
              type="button"
              aria-label={`Remove the template ${t.name}`}
              onClick={async () => {
                const r = await send({ type: 'bestiary.removeTemplate', id: t.id });
                onNote(r.ok ? { kind: 'ok', text: `Template "${t.name}" removed.` } : { kind: 'error', text: sentenceOf(r.rejection, namesOf(world)) });
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
