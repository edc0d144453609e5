// Unsaved sheet edits per creature, shared by the party's "Edit a sheet" and
// the tracker's sheet editor: kept while the GM switches "Sheet of", while a
// turn passes, and while deltas re-render the screen, until saved or
// discarded. A change to the stored sheet is taken in under the GM's edits
// (lib/sheetForm rebaseDraft), never over them.
import { useState } from 'preact/hooks';
import type { FormValue } from '../lib/schemaForm.ts';
import { isDraft, rebaseDraft } from '../lib/sheetForm.ts';

type Values = { readonly [k: string]: FormValue };
interface Kept {
  readonly start: Values;
  readonly values: Values;
}

export interface SheetDrafts {
  /** What the form for `id` opens with: the draft taken over `start` (the stored sheet now), or null for none. */
  readonly draftOf: (id: string, start: Values) => Values | null;
  /** The form's onChange for `id`: keeps the values while they differ from `start`. */
  readonly keep: (id: string, start: Values, values: Values) => void;
  readonly drop: (id: string) => void;
  /** Ids holding a draft. */
  readonly held: readonly string[];
}

export function useSheetDrafts(): SheetDrafts {
  const [kept, setKept] = useState<{ readonly [id: string]: Kept }>({});
  const drop = (id: string) => setKept(({ [id]: _gone, ...rest }) => rest);
  return {
    draftOf: (id, start) => {
      const k = kept[id];
      if (k === undefined) return null;
      const values = rebaseDraft(k.start, k.values, start);
      return isDraft(start, values) ? values : null;
    },
    keep: (id, start, values) => {
      if (!isDraft(start, values)) return kept[id] === undefined ? undefined : drop(id);
      if (kept[id]?.values !== values) setKept((d) => ({ ...d, [id]: { start, values } }));
    },
    drop,
    held: Object.keys(kept),
  };
}
