// One small form for a row of the tracker: its fields, a submit button (and
// any sibling buttons), and the refusal beside them (the damage box, the
// place form). Shared so each row form stops repeating that markup.
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/**
 * A row form: its fields, a submit button (and any sibling buttons), and the
 * refusal shown beside them. `act` returns the sentence to show, or null.
 */
export function InlineForm(props: {
  label: string;
  class?: string;
  button: string;
  buttonLabel?: string;
  act: (form: HTMLFormElement, kind: string) => Promise<string | null>;
  more?: readonly { readonly kind: string; readonly text: string; readonly label?: string }[];
  children: ComponentChildren;
}) {
  const [msg, setMsg] = useState<string | null>(null);
  const run = async (form: HTMLFormElement, kind: string) => setMsg(await props.act(form, kind));
  return (
    <form
      class={props.class ?? 'row'}
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        void run(e.currentTarget, 'submit');
      }}
    >
      {props.children}
      <button class="small" type="submit" aria-label={props.buttonLabel}>
        {props.button}
      </button>
      {(props.more ?? []).map((m) => (
        <button key={m.kind} class="small" type="button" aria-label={m.label} onClick={(e) => void run(e.currentTarget.form!, m.kind)}>
          {m.text}
        </button>
      ))}
      {msg ? (
        <span class="error small" role="alert">
          {msg}
        </span>
      ) : null}
    </form>
  );
}

