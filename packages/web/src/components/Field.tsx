// A small labelled control for compact forms: the label above, tied by
// for/id so a screen reader hears just the label as the control's name.
import type { ComponentChildren } from 'preact';

export function Field({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <span class="inline-field">
      <label for={id}>{label}</label>
      {children}
    </span>
  );
}

/** A labelled choice among plain values, each shown as itself. */
export function SelectField({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: readonly string[]; onChange: (value: string) => void }) {
  return (
    <Field id={id} label={label}>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </Field>
  );
}
