// The party by form (issue 20), in every ruleset: add a character (name,
// player seat, and the ruleset's sheet with its defaults) and edit a
// character's sheet, both generated from the ruleset's sheet model (GET
// /api/rulesets/:id/sheet) and sent through character.sheet.set. No JSON.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import { getSheetSchema } from '../net/api.ts';
import { addCharacterCommand, nameProblem, sheetFields, sheetFormSchema, sheetSetCommand, sheetStart, storedSheet, unlistedProficiencies, MAX_NAME, type SheetSchema } from '../lib/sheetForm.ts';
import { sentenceOf } from '../lib/words.ts';
import { addWithSheet } from '../lib/made.ts';
import { optionsFrom } from './Commands.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import { DraftedSheetForm } from './DraftsNote.tsx';
import { useSheetDrafts } from './sheetDrafts.ts';
import { fieldsOf, initialValues, refusalInWords, withNeeds, type FieldSpec, type FormValue } from '../lib/schemaForm.ts';
import { sheetNeedsOf } from '@tablekeeper/rulesets/browser';
import { ArmingRow } from './Arming.tsx';
import type { SendResult } from '../net/client.ts';
import type { Send } from './types.ts';

/** The ruleset's sheet schema, or null while it loads (or if the ruleset has none). */
function useSheetSchema(rulesetId: string): SheetSchema | null {
  const [sheet, setSheet] = useState<SheetSchema | null>(null);
  useEffect(() => {
    let live = true;
    void getSheetSchema(rulesetId).then((r) => {
      if (live && r.ok) setSheet(r.value);
    });
    return () => {
      live = false;
    };
  }, [rulesetId]);
  return sheet;
}

/** A refusal in words, its field named as the sheet form labels it (never a path such as "sheet.severe"). */
const refusal = (r: Extract<SendResult, { ok: false }>, fields: readonly FieldSpec[] = [], payload: { readonly [k: string]: unknown } = {}) =>
  refusalInWords(fields, payload as { readonly [k: string]: FormValue }, r.rejection, (message) => sentenceOf({ ...r.rejection, message }, {}), 'sheet');

export function CharacterForms({ world, send }: { world: World; send: Send }) {
  const sheet = useSheetSchema(world.rulesetId);
  if (sheet === null) return null;
  return (
    <>
      <AddCharacter world={world} send={send} sheet={sheet} />
      <EditSheet world={world} send={send} sheet={sheet} />
    </>
  );
}

function AddCharacter({ world, send, sheet }: { world: World; send: Send; sheet: SheetSchema }) {
  const fields = useMemo(() => sheetFields(sheet, world.settings), [sheet, world.settings]);
  const formSchema = useMemo(() => sheetFormSchema(sheet, world.settings), [sheet, world.settings]);
  const [name, setName] = useState('');
  const [seatId, setSeatId] = useState('');
  const [kind, setKind] = useState<'pc' | 'npc'>('pc');
  const [note, setNote] = useState<string | null>(null);
  // A fresh form (defaults again) after each character is added.
  const [round, setRound] = useState(0);
  const seats = Object.values(world.seats);
  const seat = seats.some((s) => s.id === seatId) ? seatId : '';
  const useOptions = useCallback((ref: string) => optionsFrom(world, ref), [world]);
  return (
    <details data-testid="add-character-form">
      <summary>Add a character</summary>
      <div class="row small">
        <span class="inline-field">
          <label for="add-char-name">Name</label>
          <input id="add-char-name" value={name} maxLength={MAX_NAME} onInput={(e) => setName(e.currentTarget.value)} />
        </span>
        <span class="inline-field">
          <label for="add-char-seat">Player seat</label>
          <select id="add-char-seat" value={seat} onChange={(e) => setSeatId(e.currentTarget.value)}>
            <option value="">(none yet)</option>
            {seats.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </span>
        <span class="inline-field">
          <label for="add-char-kind">Kind</label>
          <select id="add-char-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value === 'npc' ? 'npc' : 'pc')}>
            <option value="pc">player character</option>
            <option value="npc">non-player character</option>
          </select>
        </span>
      </div>
      <SchemaForm
        key={round}
        schema={withNeeds(formSchema, sheetNeedsOf(world.rulesetId, { name: name.trim() || 'this character', kind, stats: {} }))}
        idPrefix="add-char"
        initial={sheetStart(fields, {})}
        useOptions={useOptions}
        submitLabel="Add character"
        onSubmit={async (payload) => {
          const problem = nameProblem(name);
          if (problem !== null) return problem;
          // The character and its sheet in one change, so one Undo takes both back (ADR 73).
          const added = await send(addWithSheet(addCharacterCommand(name.trim(), kind, seat === '' ? null : seat), payload as { [k: string]: Json }));
          if (!added.ok) return refusal(added, fields, payload);
          setNote(`${name.trim()} joined the table${seat === '' ? ' (no seat yet: seat them from the invite panel)' : `, played by ${seats.find((s) => s.id === seat)?.name ?? 'their seat'}`}.`);
          setName('');
          setRound((n) => n + 1);
          return null;
        }}
      />
      <p role="status" class="small" data-testid="add-character-note">
        {note ?? ''}
      </p>
    </details>
  );
}

function EditSheet({ world, send, sheet }: { world: World; send: Send; sheet: SheetSchema }) {
  const fields = useMemo(() => sheetFields(sheet, world.settings), [sheet, world.settings]);
  const formSchema = useMemo(() => sheetFormSchema(sheet, world.settings), [sheet, world.settings]);
  const blank = useMemo(() => initialValues(fieldsOf(formSchema)), [formSchema]);
  const [chosen, setChosen] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  // Unsaved edits per character, kept while switching "Sheet of" (review 7: switching dropped them) and through
  // deltas: a change to the stored sheet (a player's edit) is taken in under them (shared with the tracker's editor).
  const drafts = useSheetDrafts();
  // What the form holds now, for hints that read across fields (a weapon's proficiencies against the sheet's).
  const [live, setLive] = useState<{ readonly id: string; readonly values: { readonly [k: string]: FormValue } } | null>(null);
  const useOptions = useCallback((ref: string) => optionsFrom(world, ref), [world]);
  const characters = Object.values(world.characters);
  const ch = characters.find((c) => c.id === chosen) ?? characters[0];
  // One schema while the needs read the same: a new one each delta made the form rebuild every field (review 10).
  const needs = ch === undefined ? {} : sheetNeedsOf(world.rulesetId, ch);
  const needsKey = JSON.stringify(needs);
  const schema = useMemo(() => withNeeds(formSchema, needs), [formSchema, needsKey]);
  if (ch === undefined) return null;
  const stored = storedSheet(world, ch);
  const start = { ...blank, ...sheetStart(fields, stored) };
  const others = characters.filter((c) => c.id !== ch.id && drafts.draftOf(c.id, { ...blank, ...sheetStart(fields, storedSheet(world, c)) }) !== null);
  return (
    <details data-testid="sheet-form">
      <summary>Edit a sheet</summary>
      <span class="inline-field">
        <label for="sheet-form-who">Sheet of</label>
        <select
          id="sheet-form-who"
          value={ch.id}
          onChange={(e) => {
            setChosen(e.currentTarget.value);
            setSaved(null);
          }}
        >
          {characters.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </span>
      <DraftedSheetForm
        drafts={drafts}
        id={ch.id}
        name={ch.name}
        start={start}
        others={others.map((c) => c.name)}
        schema={schema}
        idPrefix="sheet-form"
        useOptions={useOptions}
        submitLabel={`Save ${ch.name}'s sheet`}
        keptWhen="kept if you switch"
        testId="sheet-drafts"
        onTry={() => setSaved(null)}
        onChange={(values) => setLive({ id: ch.id, values })}
        save={async (payload) => {
          const r = await send(sheetSetCommand(ch.id, payload as { [k: string]: Json }));
          return r.ok ? null : refusal(r, fields, payload);
        }}
        onSaved={() => setSaved(`Saved ${ch.name}'s sheet.`)}
      />
      {live?.id === ch.id
        ? unlistedProficiencies(live.values).map((h) => (
            <p key={h} class="small muted" data-testid="sheet-form-hint">
              {h}
            </p>
          ))
        : null}
      <p role="status" class="small" data-testid="sheet-form-saved">
        {saved ?? ''}
      </p>
      {/* Where weapons are items (teams): what is still lacking to fight, and one row to arm (review 12 #7). */}
      <ArmingRow world={world} send={send} who={{ id: ch.id, name: ch.name, characterId: ch.id }} idPrefix="sheet-form" />
    </details>
  );
}
