// The GM's ruling on where two creatures stand (002 "Positioning and
// Movement": engaged / next to, nearby, far), on a tracker row where the
// ruleset keeps ranges (the `ranges` panel): a fight's opening positions, or a
// shove an ability describes. Part of the GM's row tools chunk.
import type { Combatant, World } from '@tablekeeper/engine';
import { hasKeptSheet, tswRangesFrom, type TswRange } from '@tablekeeper/rulesets/browser';
import { displayOrder, encounterOf, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { InlineForm } from './InlineForm.tsx';
import type { Send } from './types.ts';

const RANGES: readonly { readonly value: TswRange; readonly label: string }[] = [
  { value: 'engaged', label: 'Engaged (next to)' },
  { value: 'nearby', label: 'Nearby' },
  { value: 'far', label: 'Far' },
];

export function RangeTool({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const enc = encounterOf(world);
  // Only creatures with a sheet have a place (the command names sheets).
  const others = enc === null ? [] : displayOrder(enc).filter((o) => o.id !== c.id && hasKeptSheet(world, o.id));
  if (!hasKeptSheet(world, c.id) || others.length === 0) return null;
  const now = tswRangesFrom(world, c.id);
  const id = `range-${c.id}`;
  const go = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const r = await send({ type: '36th-way.position', fromId: c.id, toId: String(f.get('to') ?? ''), range: String(f.get('range') ?? 'nearby') });
    return r.ok ? null : sentenceOf(r.rejection, namesOf(world));
  };
  return (
    <InlineForm label={`Set the range from ${c.name}`} button="Set range" buttonLabel={`Set range from ${c.name}`} act={go}>
      <label for={`${id}-to`}>Range from {c.name} to</label>
      <select id={`${id}-to`} name="to">
        {others.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} (now {now[o.id] ?? 'nearby'})
          </option>
        ))}
      </select>
      <label for={`${id}-is`} class="sr-only">
        Range
      </label>
      <select id={`${id}-is`} name="range">
        {RANGES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </InlineForm>
  );
}
