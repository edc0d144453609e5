// The GM's small table-keeping controls (issue 20: commands no control reached):
// a note for the log, the table's name. GM screen only, so the phone's entry never
// carries them.
import { useState } from 'preact/hooks';
import { MAX_COUNTDOWN_VALUE, type Countdown, type World } from '@tablekeeper/engine';
import { sentenceOf } from '../lib/words.ts';
import type { Send } from './types.ts';

/** Runs a command and keeps the refusal as a sentence for the form that sent it. */
function useSender(send: Send): [problem: string | null, run: (c: Parameters<Send>[0]) => Promise<boolean>] {
  const [problem, setProblem] = useState<string | null>(null);
  return [
    problem,
    async (c) => {
      const r = await send(c);
      setProblem(r.ok ? null : sentenceOf(r.rejection));
      return r.ok;
    },
  ];
}

function Problem({ text }: { text: string | null }) {
  return text === null ? null : (
    <p class="error small" role="alert">
      {text}
    </p>
  );
}

/** Who may read a note: its words in the picker and the audience log.note takes. */
export interface NoteAudience {
  readonly label: string;
  readonly audience: { readonly kind: 'all' } | { readonly kind: 'gm' } | { readonly kind: 'seat'; readonly seatId: string };
}

/** The GM writes for everyone or for the GM's eyes only. */
export const GM_NOTE_AUDIENCES: readonly NoteAudience[] = [
  { label: 'Everyone', audience: { kind: 'all' } },
  { label: 'GM only', audience: { kind: 'gm' } },
];

/** A note in the log (log.note), for the audiences this viewer may write to. */
export function NoteBox({ send, audiences = GM_NOTE_AUDIENCES }: { send: Send; audiences?: readonly NoteAudience[] }) {
  const [problem, run] = useSender(send);
  return (
    <form
      class="row"
      style={{ marginBottom: '6px' }}
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const f = new FormData(form);
        const text = String(f.get('note') ?? '').trim();
        if (!text) return;
        const audience = audiences[Number(f.get('audience'))]?.audience ?? { kind: 'all' };
        if (await run({ type: 'log.note', text, audience })) form.reset();
      }}
    >
      <label for="log-note" class="sr-only">
        Note for the log
      </label>
      <input id="log-note" name="note" class="grow" placeholder="A note for the log" maxLength={500} />
      <label for="log-note-who" class="sr-only">
        Who reads the note
      </label>
      <select id="log-note-who" name="audience">
        {audiences.map((a, i) => (
          <option key={a.label} value={String(i)}>
            {a.label}
          </option>
        ))}
      </select>
      <button type="submit">Post note</button>
      <Problem text={problem} />
    </form>
  );
}

/** The table's name, as players and the recent-tables list show it (table.rename). */
export function RenameTable({ world, send }: { world: World; send: Send }) {
  const [problem, run] = useSender(send);
  return (
    <form
      class="row small"
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get('tname') ?? '').trim();
        if (name && name !== world.name) await run({ type: 'table.rename', name });
      }}
    >
      <label for="table-rename">Table name</label>
      <input id="table-rename" name="tname" class="grow" defaultValue={world.name} key={world.name} maxLength={80} required />
      <button type="submit">Rename table</button>
      <Problem text={problem} />
    </form>
  );
}

/** A removal asks once more in words before it is sent (a character or a seat is gone for everyone). */
export function ConfirmRemove({ what, from = '', onConfirm }: { what: string; from?: string; onConfirm: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="small danger" onClick={() => setAsking(true)}>
        Remove {what}
        {from}
      </button>
    );
  return (
    <span class="row small" role="group" aria-label={`Remove ${what}${from}?`}>
      <span>
        Remove {what}
        {from} for good?
      </span>
      <button
        type="button"
        class="small danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, remove {what}
      </button>
      <button type="button" class="small" onClick={() => setAsking(false)}>
        Keep {what}
      </button>
    </span>
  );
}

/**
 * A seat's name and removal, and each of its characters' removal (seat.rename,
 * seat.remove, character.remove). `changed` tells the invite list the seat's new
 * name, or null once the seat is gone.
 */
export function SeatTools({ seatId, name, world, send, changed }: { seatId: string; name: string; world: World; send: Send; changed: (name: string | null) => void }) {
  const [problem, run] = useSender(send);
  const chars = Object.values(world.characters).filter((c) => c.seatId === seatId);
  // Rendered only while open, so a closed seat adds no second "Kira" to the panel's text.
  const [open, setOpen] = useState(false);
  return (
    <details class="small" style={{ marginTop: '6px' }} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Change {name}'s seat</summary>
      {open ? (
        <>
          <form
            class="row"
            onSubmit={async (e) => {
              e.preventDefault();
              const to = String(new FormData(e.currentTarget).get('sname') ?? '').trim();
              if (to && to !== name && (await run({ type: 'seat.rename', seatId, name: to }))) changed(to);
            }}
          >
            <label for={`seat-rename-${seatId}`}>New name for {name}'s seat</label>
            <input id={`seat-rename-${seatId}`} name="sname" class="grow" defaultValue={name} maxLength={80} required />
            <button type="submit" class="small">
              Rename seat
            </button>
          </form>
          <div class="row">
            {chars.map((c) => (
              <ConfirmRemove key={c.id} what={c.name} onConfirm={() => void run({ type: 'character.remove', characterId: c.id })} />
            ))}
            <ConfirmRemove what={`${name}'s seat`} onConfirm={async () => (await run({ type: 'seat.remove', seatId })) && changed(null)} />
          </div>
          <Problem text={problem} />
        </>
      ) : null}
    </details>
  );
}

/** A countdown's tick, pause or resume, one tick back, its value set by hand, and removal (countdown.tick/pause/resume/untick/set/remove). */
export function CountdownTools({ c, send }: { c: Countdown; send: Send }) {
  const [problem, run] = useSender(send);
  const paused = c.status === 'paused';
  return (
    <>
      <button type="button" class="small" onClick={() => void run({ type: 'countdown.tick', countdownId: c.id, by: 1 })} aria-label={`Tick ${c.name} down by one`} title="Tick down by one" disabled={c.status === 'ended'}>
        {/* The visible word starts the accessible name (axe: label-content-name-mismatch). */}
        Tick
      </button>
      {c.status !== 'ended' ? (
        <button type="button" class="small" aria-label={`${paused ? 'Resume' : 'Pause'} ${c.name}`} onClick={() => void run({ type: paused ? 'countdown.resume' : 'countdown.pause', countdownId: c.id })}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      ) : null}
      <button type="button" class="small" aria-label={`Untick ${c.name}: one tick back`} onClick={() => void run({ type: 'countdown.untick', countdownId: c.id, by: 1 })}>
        Untick
      </button>
      <form
        class="row small"
        onSubmit={(e) => {
          e.preventDefault();
          const value = Number(new FormData(e.currentTarget).get('value'));
          if (Number.isInteger(value)) void run({ type: 'countdown.set', countdownId: c.id, value });
        }}
      >
        <label class="sr-only" for={`cd-set-${c.id}`}>
          New value of {c.name}
        </label>
        <input id={`cd-set-${c.id}`} name="value" type="number" min={1} max={MAX_COUNTDOWN_VALUE} defaultValue={String(c.value)} key={c.value} style={{ width: '4.5em' }} required />
        <button type="submit" class="small" aria-label={`Set ${c.name} to this value`}>
          Set
        </button>
      </form>
      <button type="button" class="small danger" onClick={() => void run({ type: 'countdown.remove', countdownId: c.id })} aria-label={`Remove ${c.name}`}>
        Remove
      </button>
      <Problem text={problem} />
    </>
  );
}
