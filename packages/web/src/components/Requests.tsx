// Player requests (issue 20, ADR 29): on the phone, "Ask the GM" for damage,
// healing or a condition on one's own character and the fate of each request;
// on the GM screen, the queue of waiting requests, each approved or declined
// in one tap (approval runs the ruleset's own command on the server). The phone's
// note for the log rides in this chunk too, so the phone's entry stays small.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import type { RequestKind } from '@tablekeeper/engine/requests';
import { savedConditions } from '@tablekeeper/engine/custom-conditions';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { actionOddsArgs, approveCommand, myRequests, queueOf, requestCommand, requestKinds, requestRefusal, type QueueRow } from '../lib/requests.ts';
import { CUSTOM } from '../lib/turns.ts';
import { sentenceOf } from '../lib/words.ts';
import { ConditionFields } from './ConditionFields.tsx';
import type { Send } from './types.ts';
import { NoteBox } from './TableKeeping.tsx';
import type { Ask } from '../lib/attack.ts';
import { describeActionOdds } from '../lib/actions.ts';
import { RECOVERIES_AFTER_FIGHT } from '@tablekeeper/engine/requests';
import { keptSheetIdOf } from '@tablekeeper/rulesets/browser';
import { dyingNote, MAX_SPEND, overSpendNote, recoveryRowsOf, type RecoveryRow } from '../lib/quickRest.ts';

/** The phone's form and its list of requests, for one character of the player's. */
export function AskGm({ world, characterId, send }: { world: World; characterId: string; send: Send }) {
  const enc = encounterOf(world);
  const catalogue = enc?.catalogue;
  const [kind, setKind] = useState<RequestKind>('damage');
  const [choice, setChoice] = useState<string>(catalogue?.conditions[0]?.id ?? CUSTOM);
  const [dur, setDur] = useState('rounds');
  const [msg, setMsg] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = world.characters[characterId]?.name ?? 'your character';
  // A player's note goes to everyone or to their own seat (log.note); the GM reads both.
  const seatId = world.characters[characterId]?.seatId ?? null;
  const mine = myRequests(world, enc);
  // What cannot be asked for now is offered greyed, with the reason up front (review 13 #4), not refused after Send.
  const kinds = requestKinds(world.rulesetId).map(([v, label]) => ({ v, label, why: requestRefusal(enc, characterId, name, v) }));
  const open = kinds.filter((k) => k.why === null);
  const chosen = kinds.find((k) => k.v === kind)?.why === null ? kind : (open[0]?.v ?? kind);
  const reasons = [...new Set(kinds.flatMap((k) => (k.why === null ? [] : [k.why])))];
  return (
    <section class="ask-gm" aria-labelledby="ask-title" data-testid="ask-gm">
      <h3 id="ask-title">Ask the GM</h3>
      {reasons.map((r) => (
        <p key={r} class="small muted" data-testid="ask-not-now">
          {r}
        </p>
      ))}
      <form
        class="stack"
        aria-label={`Ask the GM about ${name}`}
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const f = new FormData(form);
          const got = (k: string) => String(f.get(k) ?? '');
          const cmd = requestCommand(characterId, { kind: chosen, amount: got('amount'), choice, custom: got('custom'), duration: dur, rounds: got('rounds'), action: got('action'), bonus: got('bonus'), note: got('note') });
          if (!cmd.ok) return setMsg(cmd.message);
          setBusy(true);
          const r = await send(cmd.value);
          setBusy(false);
          if (r.ok) form.reset();
          setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
        }}
      >
        <div class="row">
          <label for="ask-kind">For {name}</label>
          <select id="ask-kind" value={chosen} onChange={(e) => setKind(e.currentTarget.value as RequestKind)}>
            {kinds.map(({ v, label, why }) => (
              <option key={v} value={v} disabled={why !== null}>
                {label}
                {why !== null ? ' (during an encounter)' : ''}
              </option>
            ))}
          </select>
          {chosen === 'action' ? (
            <>
              <label class="sr-only" for="ask-action">
                What {name} tries
              </label>
              <input id="ask-action" name="action" maxLength={80} placeholder="climb the wall" style={{ width: '10em' }} />
              <label class="sr-only" for="ask-bonus">
                Bonus (trait and modifiers)
              </label>
              <input id="ask-bonus" name="bonus" type="number" inputMode="numeric" min={-30} max={30} placeholder="+0" style={{ width: '4.5em' }} />
            </>
          ) : chosen !== 'condition' ? (
            <>
              <label class="sr-only" for="ask-amount">
                {chosen === 'heal' ? 'Hit points to heal' : 'Damage taken'}
              </label>
              <input id="ask-amount" name="amount" type="number" inputMode="numeric" min={1} max={10000} placeholder="7" style={{ width: '5em' }} />
            </>
          ) : (
            <ConditionFields idPrefix="ask" catalogue={catalogue} saved={savedConditions(world)} choice={choice} setChoice={setChoice} duration={dur} setDuration={setDur} maxRounds={100} />
          )}
        </div>
        <div class="row">
          <label class="sr-only" for="ask-note">
            A word to the GM (optional)
          </label>
          <input id="ask-note" name="note" maxLength={120} placeholder="Why (optional)" class="grow" />
          <button type="submit" disabled={busy || open.length === 0}>
            Send to the GM
          </button>
        </div>
        {msg ? (
          <p class="error small" role="alert">
            {msg}
          </p>
        ) : null}
      </form>
      {recoveryRow(world, characterId) !== null ? <RecoveriesAsk row={recoveryRow(world, characterId)!} characterId={characterId} fight={enc?.active === true} send={send} /> : null}
      {mine.length > 0 ? (
        <ul class="list" aria-label="Your requests" aria-live="polite" data-testid="my-requests">
          {mine.map((r) => (
            <li key={r.id} class="row small">
              <span class="grow">{r.text}</span>
              <span class={`badge ${r.tone}`}>{r.status}</span>
              {r.pending ? (
                <button class="small" type="button" aria-label={`Withdraw the request for ${r.text}`} onClick={() => void send({ type: 'request.withdraw', id: r.id })}>
                  Withdraw
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {seatId !== null ? (
        <>
          <h3>A note in the log</h3>
          <NoteBox send={send} audiences={[{ label: 'Everyone', audience: { kind: 'all' } }, { label: 'Me and the GM', audience: { kind: 'seat', seatId } }]} />
        </>
      ) : null}
    </section>
  );
}

/** The 36th Way's recoveries row of the character's sheet (the GM's quick rest reads the same), or null elsewhere. */
function recoveryRow(world: World, characterId: string): RecoveryRow | null {
  const id = keptSheetIdOf(world, characterId);
  return recoveryRowsOf(world).find((r) => r.id === id) ?? null;
}

/**
 * The player's choice of recoveries at a quick rest (002 "Quick Rest"; ADR 110), asked of the GM, whose approval
 * heals with them: how many are left, what each heals, and what spending past the last costs, said before Send.
 */
function RecoveriesAsk({ row, characterId, fight, send }: { row: RecoveryRow; characterId: string; fight: boolean; send: Send }) {
  const [count, setCount] = useState(row.dying ? '1' : '');
  const [msg, setMsg] = useState<string | null>(null);
  const n = Number(count);
  const note = overSpendNote(row, n) ?? dyingNote(row);
  return (
    <form
      class="stack small"
      aria-label={`Recoveries ${row.name} spends at a quick rest`}
      data-testid="ask-recoveries"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!Number.isInteger(n) || n < 1 || n > MAX_SPEND) return setMsg(`Recoveries: a whole number from 1 to ${MAX_SPEND}.`);
        const r = await send({ type: 'request.make', characterId, kind: 'recoveries', amount: n });
        setMsg(r.ok ? null : sentenceOf(r.rejection));
        if (r.ok) setCount('');
      }}
    >
      <h4>Quick rest</h4>
      <p class="muted">
        {row.recoveries} of {row.maxRecoveries} recoveries left; each heals {row.dice}.{fight ? ` Not now: ${RECOVERIES_AFTER_FIGHT}.` : ''}
      </p>
      <div class="row">
        <label for="ask-rec">Recoveries to spend</label>
        <input id="ask-rec" type="number" inputMode="numeric" min={1} max={MAX_SPEND} value={count} style={{ width: '4.5em' }} onInput={(e) => setCount(e.currentTarget.value)} disabled={fight} />
        <button type="submit" disabled={fight}>
          Ask the GM
        </button>
      </div>
      {note !== null ? <p class="warn">{note}</p> : null}
      {msg !== null ? <p class="error" role="alert">{msg}</p> : null}
    </form>
  );
}

/** The GM's queue: each waiting request with Approve and Decline (one tap each; a declared action first takes its difficulty). */
export function RequestQueue({ world, send, ask }: { world: World; send: Send; ask?: Ask }) {
  const rows = queueOf(world, encounterOf(world));
  const [msg, setMsg] = useState<string | null>(null);
  const answer = async (cmd: { type: string; id: string }) => {
    const r = await send(cmd);
    setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
  };
  if (rows.length === 0 && msg === null) return null;
  return (
    <section class="panel request-queue" aria-labelledby="queue-title" data-testid="request-queue">
      <h2 id="queue-title">Players ask ({rows.length})</h2>
      <ul class="list" aria-live="polite">
        {rows.map((r) => (
          <QueueItem key={r.id} row={r} onAnswer={answer} onProblem={setMsg} ask={ask} />
        ))}
      </ul>
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
    </section>
  );
}

function QueueItem({ row: r, onAnswer, onProblem, ask }: { row: QueueRow; onAnswer: (cmd: { type: string; id: string }) => Promise<void>; onProblem: (m: string) => void; ask: Ask | undefined }) {
  const [difficulty, setDifficulty] = useState('');
  const [odds, setOdds] = useState<string | null>(null);
  // The exact odds at the difficulty typed so far (the server's daggerheart.actionRollOdds), before the GM rolls.
  const args = actionOddsArgs(r, difficulty);
  const key = args === null ? '' : `${args.bonus}/${args.difficulty}/${args.advantage}`;
  useEffect(() => {
    if (args === null || ask === undefined) return setOdds(null);
    let live = true;
    void ask('daggerheart.actionRollOdds', args).then((a) => {
      if (!live) return;
      const words = a.ok ? describeActionOdds('daggerheart.actionRollOdds', a.result) : null;
      setOdds(words === null ? null : `${words.headline} (${words.detail}) at difficulty ${args.difficulty}`);
    });
    return () => {
      live = false;
    };
  }, [key, ask === undefined]);
  const approve = () => {
    const cmd = approveCommand(r, difficulty);
    if (!cmd.ok) return onProblem(cmd.message);
    void onAnswer(cmd.value);
  };
  return (
    <li class="row">
      <span class="grow">
        {r.text}
        {r.note === null ? null : <span class="muted small"> "{r.note}"</span>}
      </span>
      {r.needsDifficulty ? (
        <span class="inline-field">
          <label for={`difficulty-${r.id}`} class="small">
            Difficulty
          </label>
          <input id={`difficulty-${r.id}`} aria-label={`Difficulty for ${r.text}`} type="number" inputMode="numeric" min={1} max={60} placeholder="12" value={difficulty} onInput={(e) => setDifficulty(e.currentTarget.value)} style={{ width: '4.5em' }} />
        </span>
      ) : null}
      {r.needsDifficulty && odds !== null ? (
        <span class="small muted" data-testid="queue-odds">
          {odds}
        </span>
      ) : null}
      <button class="small" type="button" aria-label={`${r.needsDifficulty ? 'Roll and approve' : 'Approve'} ${r.text}`} onClick={approve}>
        {r.needsDifficulty ? 'Roll' : 'Approve'}
      </button>
      <button class="small" type="button" aria-label={`Decline ${r.text}`} onClick={() => void onAnswer({ type: 'request.decline', id: r.id })}>
        Decline
      </button>
    </li>
  );
}
