// The line under a sheet form that says which creatures hold unsaved edits (sheetDrafts.ts), with a Discard for
// the one on screen, and the form itself kept as a draft: one shape for the party's "Edit a sheet" and the
// tracker's sheet editor (they differ in whom they list and which command saves).
import { useState } from 'preact/hooks';
import type { FormValue, JsonSchema } from '../lib/schemaForm.ts';
import { SchemaForm, type UseOptions } from './SchemaForm.tsx';
import type { SheetDrafts } from './sheetDrafts.ts';

type Values = { readonly [k: string]: FormValue };
export function DraftsNote({ name, held, others, keptWhen, testId, onDiscard }: { name: string; held: boolean; others: readonly string[]; keptWhen: string; testId: string; onDiscard: () => void }) {
  if (!held && others.length === 0) return null;
  return (
    <p class="small" role="status" data-testid={testId}>
      {held ? `${name}'s changes are not saved yet (${keptWhen}). ` : ''}
      {others.length > 0 ? `Unsaved changes kept for ${others.join(', ')}: pick them above to save.` : ''}
      {held ? (
        <button type="button" class="small" onClick={onDiscard}>
          Discard {name}'s changes
        </button>
      ) : null}
    </p>
  );
}

/**
 * A sheet form for creature `id` that keeps unsaved edits in `drafts` (through switches and deltas), says so with
 * DraftsNote, and starts afresh once saved or discarded. `save` answers a refusal to show under the form, or null.
 */
export function DraftedSheetForm(p: {
  drafts: SheetDrafts;
  id: string;
  name: string;
  start: Values;
  others: readonly string[];
  schema: JsonSchema;
  idPrefix: string;
  useOptions: UseOptions;
  submitLabel: string;
  keptWhen: string;
  testId: string;
  /** A new try (or an invalid one): the caller clears its last "Saved" line. */
  onTry: () => void;
  save: (payload: { readonly [k: string]: unknown }) => Promise<string | null>;
  onSaved: () => void;
  onChange?: (values: Values) => void;
}) {
  const { drafts, id } = p;
  const [fresh, setFresh] = useState(0);
  const draft = drafts.draftOf(id, p.start);
  const restart = () => {
    drafts.drop(id);
    setFresh((n) => n + 1);
  };
  return (
    <>
      <DraftsNote name={p.name} held={draft !== null} others={p.others} keptWhen={p.keptWhen} testId={p.testId} onDiscard={restart} />
      <SchemaForm
        key={`${id}:${fresh}`}
        schema={p.schema}
        idPrefix={p.idPrefix}
        initial={p.start}
        draft={draft ?? undefined}
        followInitial
        onChange={(values, from) => {
          p.onChange?.(values);
          drafts.keep(id, from, values);
        }}
        useOptions={p.useOptions}
        submitLabel={p.submitLabel}
        onInvalid={p.onTry}
        onSubmit={async (payload) => {
          // A new try clears the last "Saved" line, so it never stands under a new refusal (review 9).
          p.onTry();
          const refused = await p.save(payload);
          if (refused !== null) return refused;
          restart();
          p.onSaved();
          return null;
        }}
      />
    </>
  );
}
