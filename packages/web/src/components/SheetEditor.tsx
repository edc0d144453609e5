// The GM's sheet editor on 36th Way and teams tables, for any combatant (a
// foe has no character, so the party's forms cannot reach it): the ruleset's
// sheet model as a form (GET /api/rulesets/:id/sheet), saved whole with the
// ruleset's own command keyed by the combatant (36th-way.sheet.set,
// character.sheet.set). The server checks every field; its refusal, with the
// field's path, shows under the form.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import { getSheetSchema } from '../net/api.ts';
import { sheetChoices, sheetRulesOf } from '../lib/sheetEditor.ts';
import { combatantSheet, combatantSheetCommand, sheetFields, sheetFormSchema, sheetStart, type SheetSchema } from '../lib/sheetForm.ts';
import { sentenceOf } from '../lib/words.ts';
import { namesOf } from '../lib/encounter.ts';
import { keptSheetRemoveCommand } from '@tablekeeper/rulesets/browser';
import { ConfirmRemove } from './TableKeeping.tsx';
import { refusalInWords, type FormValue } from '../lib/schemaForm.ts';
import { OPEN_SHEET_EVENT } from '../lib/tswSheets.ts';
import { useSheetDrafts } from './sheetDrafts.ts';
import { optionsFrom } from './Commands.tsx';
import { DraftedSheetForm } from './DraftsNote.tsx';
import type { Send } from './types.ts';
import { ArmingRow } from './Arming.tsx';

export interface SheetEditorProps {
  readonly world: World;
  readonly enc: EncounterState | null;
  readonly send: Send;
}

export function SheetEditor({ world, enc, send }: SheetEditorProps) {
  const rules = sheetRulesOf(world);
  const [sheet, setSheet] = useState<SheetSchema | null>(null);
  // Who the GM picked, and on whose turn: a new turn starts the picker on the acting creature (GM review: it stayed on Kira on Bram's turn).
  const [picked, setPicked] = useState<{ id: string; turn: string | null }>({ id: '', turn: null });
  const [saved, setSaved] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const current = enc?.current ?? null;
  // Unsaved edits per creature survive deltas, turns and switching (shared with "Edit a sheet"; review 8).
  const drafts = useSheetDrafts();
  // A creature with unsaved edits keeps the picker through a turn change; otherwise the new turn's creature is shown.
  const chosen = picked.id !== '' && (picked.turn === current || drafts.held.includes(picked.id)) ? picked.id : (current ?? '');
  const setChosen = (id: string) => setPicked({ id, turn: current });
  // The actions panel's "Fill in Bram's sheet" opens this editor on Bram.
  useEffect(() => {
    const onOpen = (e: Event) => {
      const id = (e as CustomEvent<string>).detail;
      setPicked({ id, turn: current });
      setSaved(null);
      setOpen(true);
      requestAnimationFrame(() => document.getElementById('sheet-who')?.focus());
    };
    addEventListener(OPEN_SHEET_EVENT, onOpen);
    return () => removeEventListener(OPEN_SHEET_EVENT, onOpen);
  }, [current]);
  useEffect(() => {
    if (rules === null) return;
    let live = true;
    void getSheetSchema(rules).then((r) => live && r.ok && setSheet(r.value));
    return () => {
      live = false;
    };
  }, [rules]);
  const fields = useMemo(() => (sheet === null ? [] : sheetFields(sheet, world.settings)), [sheet, world.settings]);
  const schema = useMemo(() => (sheet === null ? null : sheetFormSchema(sheet, world.settings)), [sheet, world.settings]);
  const useOptions = useCallback((ref: string) => optionsFrom(world, ref), [world]);
  if (rules === null || schema === null) return null;
  const choices = sheetChoices(world, rules, enc);
  const c = choices.find((x) => x.id === chosen) ?? choices[0];
  if (c === undefined) return null;
  // A change to the stored sheet (damage taken, a parry) is taken in under the GM's unsaved edits, never over them.
  const stored = combatantSheet(world, rules, c.id);
  const start = sheetStart(fields, stored);
  const others = choices.filter((x) => x.id !== c.id && drafts.held.includes(x.id) && drafts.draftOf(x.id, sheetStart(fields, combatantSheet(world, rules, x.id))) !== null);
  return (
    <details class="sheet-editor small" data-testid="sheet-editor" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} style={{ borderTop: '1px solid var(--border)', marginTop: '8px', paddingTop: '4px' }}>
      <summary>Sheet</summary>
      <div class="field">
        <label for="sheet-who">Sheet of</label>
        <select
          id="sheet-who"
          value={c.id}
          onChange={(e) => {
            setChosen(e.currentTarget.value);
            setSaved(null);
          }}
        >
          {choices.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
              {x.hasSheet ? '' : ' (no sheet yet)'}
            </option>
          ))}
        </select>
      </div>
      <p class="small muted">Saving sets the whole sheet: what is left empty takes the ruleset's default.</p>
      <DraftedSheetForm
        drafts={drafts}
        id={c.id}
        name={c.name}
        start={start}
        others={others.map((x) => x.name)}
        schema={schema}
        idPrefix="sheet-edit"
        useOptions={useOptions}
        submitLabel="Save sheet"
        keptWhen="kept through turns and updates"
        testId="sheet-editor-drafts"
        onTry={() => setSaved(null)}
        save={async (payload) => {
          const r = await send(combatantSheetCommand(rules, c, payload as { [k: string]: Json }));
          // The field in the form's words ("Frequency in Cleave ..."), never the schema path (reviews 7 and 9).
          return r.ok ? null : refusalInWords(fields, payload as { [k: string]: FormValue }, r.rejection, (message) => sentenceOf({ ...r.rejection, message }, {}), 'sheet');
        }}
        onSaved={() => setSaved(`Saved ${c.name}'s sheet.`)}
      />
      {c.hasSheet && keptSheetRemoveCommand(rules, c) !== null ? (
        // The sheet goes, the creature stays (a sheet made for the wrong creature, a PC leaving the rules' play).
        <div class="row small" data-testid="sheet-remove" style={{ marginTop: '4px' }}>
          <ConfirmRemove
            what={`${c.name}'s sheet`}
            from=" (the character stays)"
            onConfirm={async () => {
              const r = await send(keptSheetRemoveCommand(rules, c)!);
              setSaved(r.ok ? `Removed ${c.name}'s sheet; ${c.name} stays.` : sentenceOf(r.rejection, namesOf(world)));
            }}
          />
        </div>
      ) : null}
      <p class="small muted" role="status" data-testid="sheet-saved">
        {saved}
      </p>
      <ArmingRow world={world} send={send} who={c} idPrefix="sheet-edit" />
    </details>
  );
}
