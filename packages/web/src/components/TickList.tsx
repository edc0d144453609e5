// One box per choice, ticked is chosen: the sheet form's picked lists (what is wielded, the attributes a weapon
// may roll) and the arming row's "also usable with" are this one list, so a name is never typed (review 12 #7).
export interface Tick {
  readonly value: string;
  readonly label: string;
}

/**
 * `full`: no more may be ticked (the list's most), so the unticked boxes are off; `name` sends them with a form;
 * `compact`: boxes sized to a row of small controls (a form's own keep the touch-sized height).
 */
export function TickList({ options, picked, onToggle, full = false, name, compact = false }: { options: readonly Tick[]; picked: readonly string[]; onToggle: (value: string, on: boolean) => void; full?: boolean; name?: string; compact?: boolean }) {
  return (
    <>
      {options.map((o) => {
        const on = picked.includes(o.value);
        return (
          <label key={o.value} class="row" style={{ fontWeight: 400 }}>
            <input type="checkbox" name={name} value={o.value} checked={on} disabled={!on && full} onChange={() => onToggle(o.value, !on)} style={compact ? { minHeight: 'auto' } : undefined} />
            {o.label}
          </label>
        );
      })}
    </>
  );
}
