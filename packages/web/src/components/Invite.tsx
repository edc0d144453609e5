// Invite panel: player seats with their links and QR codes, and the
// spectator (table display) link. Links carry the token in the fragment.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { absoluteLink, createSeat, createSpectator, listSeats, newJoinCode } from '../net/api.ts';
import type { Send } from './types.ts';
import { tvLink } from '../lib/tv-link.ts';
import { addThen } from '../lib/made.ts';
import type { ClientCommand } from '../net/codec.ts';
import { inviteSheetCommand } from '../lib/tswSheets.ts';
import { sentenceOf } from '../lib/words.ts';
import { capabilitiesOf, inviteNeedsOf } from '@tablekeeper/rulesets/browser';
import { SeatTools } from './TableKeeping.tsx';

interface Invite {
  readonly seatId: string;
  readonly name: string;
  readonly link: string;
  /** The seat's short join code and when it stops working (ADR 44); absent on invites stored before codes. */
  readonly code?: string;
  readonly codeExpiresAt?: number;
  /** When a phone joined with that code (ADR 57): the panel says "used" instead of offering it again. */
  readonly codeUsedAt?: number;
}

/** Invite links survive a reload of the GM screen in this browser (they are the GM's to hand out). */
function stored(tableId: string | null): { invites: Invite[]; spectator: string | null } {
  if (!tableId) return { invites: [], spectator: null };
  try {
    const raw = localStorage.getItem(`tk.invites.${tableId}`);
    if (raw) return JSON.parse(raw) as { invites: Invite[]; spectator: string | null };
  } catch {
    // private mode or bad JSON: start empty
  }
  return { invites: [], spectator: null };
}

export function InvitePanel({ world, gmToken, tableId, send }: { world: World; gmToken: string; tableId: string | null; send: Send }) {
  const id = tableId ?? world.tableId;
  const [state, setState] = useState(() => stored(id));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setState(stored(id)), [id]);
  const save = (s: typeof state) => {
    setState(s);
    try {
      localStorage.setItem(`tk.invites.${id}`, JSON.stringify(s));
    } catch {
      // storage full or disabled: the links still show for this session
    }
  };
  const latest = useRef(state);
  latest.current = state;
  // While a code is out, ask the server every few seconds whether a phone has used it (codes live on the server only).
  const waiting = state.invites.some((x) => x.code !== undefined && x.codeUsedAt === undefined && (x.codeExpiresAt ?? 0) > Date.now());
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    const timer = setInterval(() => {
      void listSeats(id, gmToken).then((r) => {
        if (!live || !r.ok) return;
        const seats = Array.isArray(r.value) ? r.value : r.value.seats;
        const now = latest.current;
        const invites = now.invites.map((x) => {
          const code = seats.find((s) => s.seatId === x.seatId)?.code;
          // The code the server saw used must be the one shown (an answer racing "New code" speaks of the old one).
          return code?.state === 'used' && code.expiresAt === x.codeExpiresAt && x.code !== undefined && x.codeUsedAt === undefined ? { ...x, codeUsedAt: code.usedAt } : x;
        });
        if (invites.some((x, i) => x !== now.invites[i])) save({ ...now, invites });
      });
    }, 3000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [waiting, id, gmToken]);

  return (
    <section class="panel area-invite" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite</h2>
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const name = String(new FormData(form).get('seat') ?? '').trim();
          if (!name) return;
          setBusy(true);
          const r = await createSeat(id, gmToken, name);
          setBusy(false);
          if (!r.ok) return setError(r.message);
          setError(null);
          form.reset();
          const code = r.value.code === undefined ? {} : { code: r.value.code, codeExpiresAt: r.value.codeExpiresAt ?? 0 };
          save({ ...state, invites: [...state.invites, { seatId: r.value.seatId, name, link: absoluteLink(r.value.link), ...code }] });
        }}
      >
        <label for="seat-name" class="sr-only">
          Player name
        </label>
        <input id="seat-name" name="seat" class="grow" placeholder="Player name" maxLength={80} required />
        <button type="submit" disabled={busy}>
          Add player seat
        </button>
      </form>
      {error ? (
        <p class="error small" role="alert">
          {error}
        </p>
      ) : null}
      <ul class="list" aria-label="Player seats">
        {state.invites.map((inv) => (
          <li key={inv.seatId}>
            <SeatInvite
              inv={inv}
              world={world}
              send={send}
              newCode={async () => {
                const r = await newJoinCode(id, gmToken, inv.seatId);
                if (!r.ok) return setError(r.message);
                setError(null);
                save({ ...state, invites: state.invites.map((x) => (x.seatId === inv.seatId ? { seatId: x.seatId, name: x.name, link: x.link, code: r.value.code, codeExpiresAt: r.value.expiresAt } : x)) });
              }}
            />
            <SeatTools
              seatId={inv.seatId}
              name={inv.name}
              world={world}
              send={send}
              changed={(name) => {
                const now = latest.current;
                save({ ...now, invites: name === null ? now.invites.filter((x) => x.seatId !== inv.seatId) : now.invites.map((x) => (x.seatId === inv.seatId ? { ...x, name } : x)) });
              }}
            />
          </li>
        ))}
      </ul>
      <div style={{ marginTop: '8px' }}>
        {state.spectator ? (
          <>
            <LinkBox label="Spectator (table display) link" link={state.spectator} testid="spectator-link" />
            <LinkBox label="TV link (turn order in large type)" link={tvLink(state.spectator)} testid="tv-link" />
          </>
        ) : (
          <button
            onClick={async () => {
              const r = await createSpectator(id, gmToken);
              if (!r.ok) return setError(r.message);
              save({ ...state, spectator: absoluteLink(r.value.link) });
            }}
          >
            Make a spectator link
          </button>
        )}
      </div>
    </section>
  );
}

function SeatInvite({ inv, world, send, newCode }: { inv: Invite; world: World; send: Send; newCode: () => Promise<void> }) {
  const chars = Object.values(world.characters).filter((c) => c.seatId === inv.seatId);
  const [problem, setProblem] = useState<string | null>(null);
  const slots = capabilitiesOf(world.rulesetId).hpSlots;
  const needed = inviteNeedsOf(world.rulesetId);
  return (
    <div>
      <div class="row">
        <strong class="grow">{inv.name}</strong>
        <span class="small muted">{chars.map((c) => c.name).join(', ') || 'no character yet'}</span>
      </div>
      <div class="row" style={{ alignItems: 'flex-start' }}>
        <QrCode text={inv.link} label={`QR code for ${inv.name}'s link`} />
        <div class="grow">
          <LinkBox label={`${inv.name}'s link`} link={inv.link} testid="seat-link" />
          <JoinCode inv={inv} newCode={newCode} />
          <form
            class="row"
            style={{ marginTop: '6px' }}
            onSubmit={async (e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const f = new FormData(form);
              const name = String(f.get('cname') ?? '').trim();
              const hp = Number(f.get('chp'));
              if (!name) return;
              const typed = Number.isInteger(hp) && hp > 0;
              // A ruleset whose HP is slots (Daggerheart: hpMax, 1 to 30) keeps them on the sheet: the one HP its screens read (review 6).
              if (slots !== null && typed && hp > slots) return setProblem(`HP slots run from 1 to ${slots}.`);
              // Numbers a rule reads that have no default (Daggerheart's Evasion, ADR 79) are asked for here, not left unset.
              const asked: { [k: string]: number } = {};
              for (const q of needed) {
                const raw = String(f.get(`cn-${q.key}`) ?? '').trim();
                const v = Number(raw);
                if (raw === '' || !Number.isInteger(v) || v < q.min || v > q.max) return setProblem(`${name} needs a${/^[AEIOU]/.test(q.label) ? 'n' : ''} ${q.label}, a whole number from ${q.min} to ${q.max}: ${q.why}.`);
                const floor = q.atLeast === undefined ? undefined : asked[q.atLeast];
                if (floor !== undefined && v < floor) return setProblem(`${name}'s ${q.label} must be at least the ${needed.find((x) => x.key === q.atLeast)?.label ?? q.atLeast} (${floor}).`);
                asked[q.key] = v;
              }
              const stats = { ...(!typed ? {} : slots !== null ? { hpMax: hp } : { hp, maxHp: hp }), ...asked };
              form.reset();
              const add = { type: 'character.add', name, kind: 'pc', seatId: inv.seatId, stats } as const;
              // The 36th Way and teams keep HP (and teams its endurance, stamina, constitution) on their own sheet (GM reviews 6, 12):
              // the character and that sheet go as one batch (ADR 73), so one Undo takes both back.
              const sheet = inviteSheetCommand(world.rulesetId, '', typed ? hp : null, asked);
              const r = await send(sheet === null ? add : addThen(add, (characterId) => ({ ...sheet, characterId }) as ClientCommand));
              setProblem(r.ok ? null : `${name}: ${sentenceOf(r.rejection)}`);
            }}
          >
            <label class="sr-only" for={`cname-${inv.seatId}`}>
              Character name for {inv.name}
            </label>
            <input id={`cname-${inv.seatId}`} name="cname" class="grow" placeholder="Character" maxLength={80} />
            <label class="sr-only" for={`chp-${inv.seatId}`}>
              Hit points
            </label>
            <input id={`chp-${inv.seatId}`} name="chp" placeholder={slots !== null ? 'HP slots' : 'HP'} inputMode="numeric" style={{ width: '5.5em' }} />
            {needed.map((q) => (
              <span key={q.key}>
                <label class="sr-only" for={`cn-${q.key}-${inv.seatId}`}>
                  {q.label} for {inv.name}'s character
                </label>
                <input id={`cn-${q.key}-${inv.seatId}`} name={`cn-${q.key}`} placeholder={q.short ?? q.label} title={`${q.label}, ${q.min} to ${q.max}: ${q.why}`} inputMode="numeric" aria-required="true" style={{ width: '5.5em' }} />
              </span>
            ))}
            <button type="submit" class="small">
              Add character
            </button>
          </form>
          {problem !== null ? (
            <p class="error small" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** The seat's short code to read out (typed on the landing page), with when it stops working and a button for a new one. */
function JoinCode({ inv, newCode }: { inv: Invite; newCode: () => Promise<void> }) {
  const clock = (t: number) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const live = inv.code !== undefined && inv.codeUsedAt === undefined && (inv.codeExpiresAt ?? 0) > Date.now();
  const until = live ? clock(inv.codeExpiresAt!) : null;
  return (
    <div class="row small" style={{ marginTop: '6px' }}>
      {inv.code !== undefined && inv.codeUsedAt !== undefined ? (
        // Single use (ADR 44): once a phone joined with it, the code is shown as spent, never as one to read out.
        <span class="muted" data-testid="join-code-used">
          Join code <s>{inv.code.slice(0, 4)}-{inv.code.slice(4)}</s> used by a phone at {clock(inv.codeUsedAt)}
        </span>
      ) : live ? (
        <>
          <span>
            Join code{' '}
            <strong class="join-code" data-testid="join-code">
              {inv.code!.slice(0, 4)}-{inv.code!.slice(4)}
            </strong>
          </span>
          <span class="muted">works once, until {until}</span>
        </>
      ) : (
        <span class="muted">{inv.code === undefined ? 'No join code yet.' : 'The join code has expired.'}</span>
      )}
      <button class="small" type="button" onClick={() => void newCode()} aria-label={`New code for ${inv.name}`}>
        New code
      </button>
    </div>
  );
}

function LinkBox({ label, link, testid }: { label: string; link: string; testid: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="field" style={{ marginBottom: 0 }}>
      <span class="small">{label}</span>
      <div class="row">
        <input class="link-box grow" readOnly value={link} aria-label={label} data-testid={testid} onFocus={(e) => e.currentTarget.select()} />
        <button
          class="small"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(link);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** QR code drawn to SVG by `qrcode`, loaded on demand so it stays out of the player's bundle. */
function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then((QR) => QR.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })).then((s) => live && setSvg(s));
    return () => {
      live = false;
    };
  }, [text]);
  return <div class="qr" role="img" aria-label={label} dangerouslySetInnerHTML={svg ? { __html: svg } : undefined} />;
}
