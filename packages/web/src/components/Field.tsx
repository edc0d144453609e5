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
