// The turn's actions (ADR 23): the ruleset's `<ns>.actions` query lists what
// the acting creature may do now, at what cost and against whom (only
// creatures this viewer can see). Each action with something to pick opens a
// small form; the odds query answers before the roll; the result is the log
// lines the command wrote. No rule is decided here.
import { useEffect, useRef, useState } from 'preact/hooks';
import { moduleStatesOf, type EncounterState, type World } from '@tablekeeper/engine';
import { actionsQueryOf, capabilitiesOf, lifeFlags, teamsAwaiting } from '@tablekeeper/rulesets/browser';
import { waitingOn } from '../lib/hitChoices.ts';
import { actionsInputs, afterRollWords, commandOf, formDone, formStays, describeActionOdds, keepForm, maxTargets, oddsQueriesOf, oneTap, payloadOf, pickTarget, picksOf, readActions, againForm, targetOptionsOf, tickPick, toggleAlso, type ActionForm, type ActionsAnswer, type TurnAction } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import { targetNote } from '../lib/targets.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { needsSheetLine, OPEN_SHEET_EVENT } from '../lib/tswSheets.ts';
import type { QueryAnswer } from '../net/codec.ts';
import type { Send } from './types.ts';

export interface ActionsPanelProps {
  readonly world: World;
  readonly enc: EncounterState;
  readonly gm: boolean;
  readonly send: Send;
  readonly ask: Ask;
  /** Combatant ids a player controls. */
  readonly mine?: readonly string[];
  /** Whose list, where it is not the turn's (the GM's list for an ally a teams Command lets act now). */
  readonly actor?: string;
  readonly testId?: string;
}

function withoutReadied(a: ActionsAnswer | null, id: string | undefined): ActionsAnswer | null {
  return a === null || id === undefined ? a : { ...a, actions: a.actions.filter((x) => x.id !== id) };
}

/** Whose actions this viewer sees: the GM the current turn's; a player their own (the current one first, then one a Command lets act now). */
function actorFor(world: World, enc: EncounterState, gm: boolean, mine: readonly string[]): string | null {
  if (gm) return enc.current;
  if (enc.current !== null && mine.includes(enc.current)) return enc.current;
  return teamsAwaiting(world).commanded.find((id) => mine.includes(id)) ?? mine[0] ?? null;
}

export function ActionsPanel(props: ActionsPanelProps) {
  // The GM also acts for an ally a teams Command lets take one action now, in its own list under the turn's (003 Actions table).
  const allies = props.gm ? teamsAwaiting(props.world).commanded.filter((id) => id !== props.enc.current) : [];
  return (
    <>
      <ActorActions {...props} />
      {allies.map((id) => (
        <ActorActions key={id} {...props} actor={id} testId="commanded-actions" />
      ))}
    </>
  );
}

function ActorActions({ world, enc, gm, send, ask, mine = [], actor, testId = 'actions-panel' }: ActionsPanelProps) {
  const query = actionsQueryOf(world.rulesetId);
  const who = actor ?? actorFor(world, enc, gm, mine);
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // The open form has rolled: its button then opens a fresh form instead of closing it (review 6: a second Attack).
  const [rolled, setRolled] = useState<string | null>(null);
  const [fresh, setFresh] = useState(0);
  // The turn (the kernel's serial) in which the open form was opened: a spent action's form outlives only that turn.
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  // A one-tap action with a heavy cost (002's Flee) waiting for its confirm; any turn change forgets it.
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => setAsking(null), [who, enc.turnSerial]);
  // Ask again only when what the answer reads changes: the actor, the turn, the economy, the combatants and
  // their conditions, the characters and the rules' own state (sheets, positions, phases); not for a log line.
  useEffect(() => {
    if (query === null || who === null) {
      setAnswer(null);
      return;
    }
    let live = true;
    void ask(query, { combatantId: who }).then((a) => {
      // A readied Attack is taken from its row's "Take it now" (HeldActions), not from the turn's list.
      if (live) setAnswer(a.ok ? withoutReadied(readActions(a.result), capabilitiesOf(world.rulesetId).readiedAttackAction) : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [query, who, ...actionsInputs(world, enc, who)]);
  // A dying PC's allowed death save is all they may do: its form opens by itself, so its odds are read before the roll (review 13 #6).
  const saveNow = answer !== null && typeof answer !== 'string' && answer.actions.some((a) => a.id === 'deathSave' && a.allowed) ? 'deathSave' : null;
  const listed = answer !== null && typeof answer !== 'string' ? (answer.actions.find((a) => a.id === (open ?? saveNow)) ?? null) : null;
  // A teams Command's granted action leaves the list once used (it may answer before the roll is marked here):
  // its form stays, its result in view, through the turn it was opened in.
  const [last, setLast] = useState<TurnAction | null>(null);
  useEffect(() => {
    if (listed !== null) setLast(listed);
  }, [listed]);
  const used = listed === null && last !== null && last.id === open && last.id.endsWith('-commanded');
  const found = used ? { ...last, allowed: false, reason: 'the Command that gave it is used' } : listed;
  const dyingNow = found !== null && answer !== null && typeof answer !== 'string' && lifeFlags(world, enc.combatants[answer.combatantId]?.characterId ?? null)['dying'] === true;
  const stale = found !== null && !formStays(found, openedAt, enc.turnSerial, dyingNow, rolled === found.id || used);
  // A form for an action that can no longer be taken closes for good, so it does not come back unasked later.
  useEffect(() => {
    if (stale) {
      setOpen(null);
      setRolled(null);
    }
  }, [stale]);
  if (query === null || who === null || answer === null) return null;
  if (typeof answer === 'string') {
    return (
      <p class="small muted" data-testid={testId}>
        No actions: {answer}
      </p>
    );
  }
  if (answer.actions.length === 0) {
    // The 36th Way and teams answer nothing for a creature without a sheet of their own (GM review: "Bram has no actions here yet").
    const needs = needsSheetLine(world.rulesetId, answer.name, gm);
    return (
      <p class="small muted" data-testid={testId}>
        {needs ?? `${answer.name} has no actions here yet.`}{' '}
        {needs !== null && gm ? (
          <button class="small" onClick={() => dispatchEvent(new CustomEvent(OPEN_SHEET_EVENT, { detail: answer.combatantId }))}>
            Fill in {answer.name}'s sheet
          </button>
        ) : null}
      </p>
    );
  }
  const allowed = answer.actions.filter((a) => a.allowed);
  const blocked = answer.actions.filter((a) => !a.allowed);
  // The rolls against someone (a target picker and odds: attacks) among them, shown with their reasons in view.
  const held = blocked.filter((a) => a.target !== null && a.odds !== null && a.reason !== null);
  // An open form stays open once its action is spent, so the roll's result stays in view; not once its creature
  // is dying or dead, which cannot act at all (001 "Death & Injury"; review 6: the phone kept the attack form).
  const life = lifeFlags(world, enc.combatants[answer.combatantId]?.characterId ?? null);
  // A 36th Way dying PC's turn is its death save (002 "Dying and Death"): the list offers it, so the form opens.
  const deathSave = answer.actions.find((a) => a.id === 'deathSave');
  const unable = life['dead'] === true || (life['dying'] === true && deathSave?.allowed !== true);
  const current = unable || stale ? null : found;
  const tap = async (a: TurnAction, confirmed = false) => {
    if (!oneTap(a)) {
      setRolled(null);
      setOpenedAt(enc.turnSerial);
      if (open === a.id && rolled === a.id) return setFresh(fresh + 1);
      return setOpen(open === a.id ? null : a.id);
    }
    // A second tap on the list's button (a double click) takes the question back, never the cost.
    if (a.confirm !== undefined && !confirmed) return setAsking(asking === a.id ? null : a.id);
    setAsking(null);
    const r = await send({ type: a.command, ...a.fixed } as Parameters<Send>[0]);
    setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
  };
  const confirming = allowed.find((a) => a.id === asking && a.confirm !== undefined);
  return (
    <section class="actions" aria-labelledby={`${testId}-title-${answer.combatantId}`} data-testid={testId} style={{ borderTop: '1px solid var(--border)', marginTop: '8px', paddingTop: '4px' }}>
      <h3 id={`${testId}-title-${answer.combatantId}`}>
        {answer.name}: actions{answer.onTurn ? '' : ' (off turn)'}
      </h3>
      {unable ? (
        <p class="small muted" data-testid="actions-unable">
          {answer.name} {life['dead'] === true ? 'is dead' : deathSave !== undefined ? 'is dying: a death save on their own turn is all they may do' : 'is at 0 HP and cannot act'}.
        </p>
      ) : allowed.length === 0 ? (
        // Off turn, a free action or an interrupt may still come (review 9: "Nothing left" while Kira kept her interrupt).
        <p class="small muted" data-testid="actions-none">
          {answer.onTurn ? 'Nothing left to do this turn.' : `Not ${answer.name}'s turn: an answer they may give (an opportunity attack, an interrupt) shows up when something calls for it.`}
        </p>
      ) : null}
      <div class="row" role="group" aria-label={`Actions ${answer.name} can take now`}>
        {allowed.map((a) => (
          <button key={a.id} class="small" aria-pressed={oneTap(a) ? undefined : (open ?? saveNow) === a.id} onClick={() => void tap(a)}>
            {a.label} <span class="muted">({a.cost})</span>
          </button>
        ))}
      </div>
      {confirming !== undefined ? (
        <p class="small" role="alert" data-testid="action-confirm">
          {confirming.confirm}{' '}
          <button class="small primary" onClick={() => void tap(confirming, true)}>
            {confirming.label}: yes
          </button>{' '}
          <button class="small" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </p>
      ) : null}
      {held.length > 0 && answer.onTurn && !unable ? (
        // A roll against someone that cannot be made now says why and what to do in view, not only folded away
        // (review 9: a foe's Spear out of reach showed nothing); the words are the engine's.
        <ul class="small muted" data-testid="actions-why-not" aria-label={`Why ${answer.name} cannot do these now`}>
          {held.map((a) => (
            <li key={a.id}>
              Not now: {a.label}: {a.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
      {current !== null ? <ActionFormView key={`${answer.combatantId}:${current.id}:${fresh}`} action={current} world={world} send={send} ask={ask} onRolled={() => {
            setRolled(current.id);
            setOpen(current.id);
            setOpenedAt(enc.turnSerial);
          }} /> : null}
      <NotNow actions={blocked} testId="actions-blocked" />
    </section>
  );
}

/** The actions that cannot be taken now, each with the engine's reason: the turn's list and the GM's rule tools (one list, review 11). */
export function NotNow({ actions, testId }: { actions: readonly TurnAction[]; testId?: string }) {
  if (actions.length === 0) return null;
  return (
    <details class="small">
      <summary>Not now ({actions.length})</summary>
      <ul data-testid={testId}>
        {actions.map((a) => (
          <li key={a.id}>
            {a.label}: {a.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * One action's form; `submit` names the button where the action rolls nothing (a parry, taking the hit).
 * Once it has rolled, its result stays in view and "Again" readies it for the next roll.
 */
/** Why no odds are asked for yet: what the form still needs, in its own words (review 9: "Odds…" hung on a bad number). */
function noOddsYet(action: TurnAction, f: ActionForm): string {
  const p = payloadOf(action, f);
  return p.ok ? 'Odds…' : `No odds yet: ${p.message}`;
}

export function ActionFormView({ action, world, send, ask, submit, onRolled, done = null, onClose }: { action: TurnAction; world: World; send: Send; ask: Ask; submit?: string; onRolled?: () => void; done?: string | null; onClose?: () => void }) {
  const [form, setForm] = useState<ActionForm | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  // An opened form comes fully into view, below the phone's sticky "your turn" banner (scroll-padding in styles.css).
  useEffect(() => {
    formRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [action.id]);
  const f = keepForm(action, form);
  // One odds answer per target picked, in the order picked.
  const [odds, setOdds] = useState<readonly (QueryAnswer | null)[]>([]);
  const [msg, setMsg] = useState<string | null>(null);
  const [since, setSince] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  // A refusal answers the action as it was: once the engine's answer changes (the sheet was fixed), it goes (review 11 #7).
  const shape = JSON.stringify(action);
  useEffect(() => setMsg(null), [shape]);
  const qs = oddsQueriesOf(action, f);
  const qKey = JSON.stringify(qs);
  useEffect(() => {
    if (qs.length === 0) return setOdds([]);
    let live = true;
    setOdds(qs.map(() => null));
    void Promise.all(qs.map((q) => ask(q.name, q.args))).then((all) => {
      if (live) setOdds(all);
    });
    return () => {
      live = false;
    };
  }, [qKey, world]);
  const set = (patch: Partial<ActionForm>) => setForm({ ...f, ...patch });
  const setValue = (field: string, v: string) => set({ values: { ...f.values, [field]: v } });
  const p = `act-${action.id.replace(/[^a-z0-9-]/gi, '-')}`;
  const max = maxTargets(action);
  const nameOf = (t: string) => action.target?.options.find((o) => o.value === t)?.label ?? '';
  const lines = qs.map((q, i) => ({ target: q.target, answer: odds[i] ?? null, words: odds[i]?.ok === true && action.odds !== null ? describeActionOdds(action.odds.query, odds[i].result) : null }));
  const results = since === null ? [] : world.log.filter((e) => e.tx > since);
  const resultList =
    results.length > 0 ? (
      <ul class="small" aria-label="Result" data-testid="action-result">
        {results.map((e, i) => (
          <li key={`${e.tx}-${i}`}>{e.text}</li>
        ))}
      </ul>
    ) : null;
  // Rolled, and the action may not be taken again now (its Beat or action spent): the result and why stay, the odds
  // and a dead Roll button go (review 12: a Kleptonomicon Basic Attack kept "5% to hit" over a disabled Roll).
  const spent = since !== null && !action.allowed;
  // Its purpose gone (the one it was for is stable, dead, or nobody is left): a done state, never a form to roll again.
  const finished = formDone(action, since !== null, done);
  if (finished !== null) {
    return (
      <form class="action-form action-done" aria-label={`${action.label}: done`} data-testid="action-form" data-done="true" onSubmit={(e) => e.preventDefault()}>
        <p role="status" data-testid="action-done">
          <strong>Done.</strong> {finished}
        </p>
        {resultList}
        {onClose !== undefined ? (
          <button type="button" class="small" onClick={onClose}>
            Close
          </button>
        ) : null}
      </form>
    );
  }
  return (
    <form
      class="action-form"
      // Our own check says in the page what is wrong (GM review: a Move past the units left was only a browser bubble).
      noValidate
      ref={formRef}
      aria-label={action.label}
      data-testid="action-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const checked = payloadOf(action, f);
        if (!checked.ok) return setMsg(checked.message);
        const cmd = commandOf(action, f)!;
        const before = world.log.at(-1)?.tx ?? -1;
        setBusy(true);
        const r = await send(cmd);
        setBusy(false);
        if (!r.ok) return setMsg(sentenceOf(r.rejection, namesOf(world)));
        setMsg(null);
        setSince(before);
        onRolled?.();
      }}
    >
      <div class="row" style={{ alignItems: 'flex-end' }}>
        {action.target !== null ? (
          <div class="field">
            <label for={`${p}-target`}>{action.target.label ?? 'Target'}</label>
            <select id={`${p}-target`} value={f.target} onChange={(e) => setForm(pickTarget(action, f, e.currentTarget.value))}>
              {f.target === '' && !action.target.options.some((o) => o.value === '') ? (
                <option value="" disabled>
                  Pick a target
                </option>
              ) : null}
              {targetOptionsOf(action).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                  {targetNote(o, action.target?.aim)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {action.target !== null && max > 1 ? (
          <fieldset class="field" data-testid="action-more-targets">
            <legend>
              {action.target.label === undefined ? 'More targets' : 'Also'} (up to {max - 1})
            </legend>
            {targetOptionsOf(action)
              .filter((o) => o.value !== f.target && o.value !== '')
              .map((o) => (
                <label key={o.value} class="small">
                  <input type="checkbox" checked={f.also.includes(o.value)} disabled={!f.also.includes(o.value) && f.also.length >= max - 1} onChange={(e) => setForm(toggleAlso(f, o.value, e.currentTarget.checked))} /> {o.label}
                  {targetNote(o, action.target?.aim)}
                </label>
              ))}
          </fieldset>
        ) : null}
        {action.choices.map((c) =>
          c.list === true ? (
            <fieldset class="field" key={c.field}>
              <legend>{c.label}</legend>
              {c.options
                .filter((o) => o.value !== '')
                .map((o) => (
                  <label key={o.value} class="small">
                    <input type="checkbox" checked={picksOf(c, f.values[c.field] ?? '').includes(o.value)} onChange={(e) => setValue(c.field, tickPick(c, f.values[c.field] ?? '', o.value, e.currentTarget.checked))} /> {o.label}
                  </label>
                ))}
            </fieldset>
          ) : (
            <div class="field" key={c.field}>
              <label for={`${p}-${c.field}`}>{c.label}</label>
              <select id={`${p}-${c.field}`} value={f.values[c.field]} onChange={(e) => setValue(c.field, e.currentTarget.value)}>
                {c.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                    {o.note ? ` (${o.note})` : ''}
                  </option>
                ))}
              </select>
            </div>
          ),
        )}
        {action.numbers.map((n) => (
          <div class="field" key={n.field}>
            <label for={`${p}-${n.field}`}>{n.label}</label>
            <input id={`${p}-${n.field}`} type="number" inputMode="numeric" min={n.min} max={n.max} step={1} value={f.values[n.field]} style={{ width: '5em' }} onInput={(e) => setValue(n.field, e.currentTarget.value)} />
          </div>
        ))}
        {action.texts.map((t) =>
          t.readOnly === true ? (
            <div class="field" key={t.field} data-testid={`action-shown-${t.field}`}>
              <span class="small muted" id={`${p}-${t.field}`}>{t.label}</span>
              <output aria-labelledby={`${p}-${t.field}`}>{t.value}</output>
            </div>
          ) : (
            <div class="field" key={t.field}>
              <label for={`${p}-${t.field}`}>{t.label}</label>
              <input id={`${p}-${t.field}`} maxLength={t.max} size={7} value={f.values[t.field]} list={t.suggestions !== undefined ? `${p}-${t.field}-list` : undefined} onInput={(e) => setValue(t.field, e.currentTarget.value)} />
              {t.suggestions !== undefined ? (
                <datalist id={`${p}-${t.field}-list`}>
                  {t.suggestions.map((w) => (
                    <option key={w} value={w} />
                  ))}
                </datalist>
              ) : null}
            </div>
          ),
        )}
      </div>
      {action.flags.length > 0 ? (
        <div class="row small">
          {action.flags.map((x) => (
            <label key={x.field}>
              <input type="checkbox" checked={f.flags[x.field] === true} onChange={(e) => set({ flags: { ...f.flags, [x.field]: e.currentTarget.checked } })} /> {x.label}
            </label>
          ))}
        </div>
      ) : null}
      {action.odds !== null && !spent ? (
        <div class="attack-odds" aria-live="polite" data-testid="action-odds">
          {lines.length === 0 ? <span class="small muted">{noOddsYet(action, f)}</span> : null}
          {lines.map((l, i) => (
            <p key={l.target} data-testid={lines.length > 1 ? 'action-odds-line' : undefined}>
              {lines.length > 1 ? `${nameOf(l.target)}: ` : ''}
              {l.words !== null ? (
                <>
                  <strong>{l.words.headline}</strong>
                  <br />
                  <span class="small muted">
                    {l.words.detail}
                    {i === 0 && action.odds?.note ? `; ${action.odds.note}` : ''}
                  </span>
                </>
              ) : l.answer?.ok === false ? (
                <span class="small muted">No odds: {sentenceOf({ code: 'RULE_ERROR', message: l.answer.error.message }, namesOf(world))}</span>
              ) : (
                <span class="small muted">Odds…</span>
              )}
            </p>
          ))}
        </div>
      ) : null}
      <div class="row">
        {spent ? null : (
          <button class="primary" type="submit" disabled={busy || !action.allowed}>
            {submit ?? (action.odds !== null && !/^Roll\b/.test(action.label) ? `Roll: ${action.label}` : action.label)}
          </button>
        )}
        {!action.allowed && since === null ? <span class="small muted">Not now: {action.reason}</span> : null}
        {msg ? (
          <span class="error small" role="alert">
            {msg}
          </span>
        ) : null}
      </div>
      {resultList}
      {since !== null && !action.allowed && action.reason !== null ? (
        // After the roll, what the roll itself used up is news, not a refusal (review 7: "Not now: Cleave is expended" sat above the hit).
        <p class="small muted" data-testid="action-after">
          {afterRollWords(action.reason)}
        </p>
      ) : null}
      {since !== null && action.allowed ? (
        // The same picks for the next roll, but never a target that has since fallen (lib/targets).
        <button type="button" class="small" onClick={() => {
            setSince(null);
            setMsg(null);
            setForm(againForm(action, f));
          }}>
          Again
        </button>
      ) : null}
    </form>
  );
}

export interface ReactionPromptsProps {
  readonly world: World;
  readonly send: Send;
  readonly ask: Ask;
  readonly gm: boolean;
  /** Combatant ids this viewer controls: a player answers for these only (lib/hitChoices waitingOn). */
  readonly mine: readonly string[];
  /** A phone's characters, who answer by their kept sheets whether a fight runs or not (ADR 117). */
  readonly characters?: readonly string[] | undefined;
}

type Prompt = { readonly id: string; readonly kind: string; readonly text: string; readonly actions: readonly TurnAction[] };

/**
 * "You are hit" (ADR 42): each hit waiting for its target's reaction, and each
 * fortify-or-fall choice, with the engine's answers (teams.reactions) as
 * buttons; a button opens its form with the odds, the submit answers.
 */
export function ReactionPrompts({ world, send, ask, gm, mine, characters = [] }: ReactionPromptsProps) {
  const keys = waitingOn(world, gm, mine, characters);
  if (keys.length === 0) return null;
  return (
    <section class="reaction-prompts" aria-label="Waiting for an answer" data-testid="reaction-prompts">
      {keys.map((k) => (
        <ReactionPromptsOf key={k} world={world} send={send} ask={ask} id={k} />
      ))}
    </section>
  );
}

function ReactionPromptsOf({ world, send, ask, id }: { world: World; send: Send; ask: Ask; id: string }) {
  const [prompts, setPrompts] = useState<readonly Prompt[] | string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // Asked again when the rules' state (the pending hit) or this creature's economy changes; read by identity, not by layout.
  const inputs = [...moduleStatesOf(world, ['encounter']), encounterOf(world)?.economy[id]];
  useEffect(() => {
    let live = true;
    // The 36th Way's prompts are its opportunity attacks (ADR 69), in the same shape as the teams' reactions.
    void ask(capabilitiesOf(world.rulesetId).reactionsQuery ?? 'teams.reactions', { characterId: id }).then((a) => {
      if (!live) return;
      const r = a.ok ? (a.result as { prompts?: unknown }) : null;
      setPrompts(a.ok ? (Array.isArray(r?.prompts) ? (r.prompts as Prompt[]) : []) : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [id, inputs.length, ...inputs]);
  if (prompts === null) return null;
  if (typeof prompts === 'string') return <p class="small muted">{sentenceOf({ code: 'RULE_ERROR', message: prompts }, namesOf(world))}</p>;
  return (
    <>
      {prompts.map((p) => {
        const current = p.actions.find((a) => `${p.id}:${a.id}` === open) ?? null;
        return (
          <div key={p.id} class="reaction-prompt" role="alert" data-testid="reaction-prompt" style={{ border: '2px solid var(--accent)', borderRadius: '6px', padding: '6px', margin: '6px 0' }}>
            <p>
              <strong>{p.text}</strong>
            </p>
            {/* Choices are radios and the open form's button the one answer (review 10: a "Take it" toggle above a "Take it" submit read as answered). */}
            <div class="row" role="radiogroup" aria-label={p.kind === 'hit' ? 'Answer the hit' : p.kind === 'intercept' ? 'Step in' : p.kind === 'opportunity' ? 'Opportunity attack' : 'Stay conscious'}>
              {p.actions.map((a) => (
                <label key={a.id} class="small" title={a.reason ?? undefined}>
                  <input type="radio" name={`answer-${p.id}`} disabled={!a.allowed} checked={open === `${p.id}:${a.id}`} onChange={() => setOpen(`${p.id}:${a.id}`)} /> {a.label} <span class="muted">({a.cost})</span>
                </label>
              ))}
            </div>
            {current === null ? <p class="small muted">Pick an answer to see what it leaves, then confirm it.</p> : null}
            {p.actions
              .filter((a) => !a.allowed)
              .map((a) => (
                <p key={a.id} class="small muted">
                  {a.label}: not now, {a.reason}
                </p>
              ))}
            {current !== null ? <ActionFormView key={`${p.id}:${current.id}`} action={current} world={world} send={send} ask={ask} submit={current.id === 'dodge' || current.id === 'fortify' || current.id === 'opportunity' ? `Roll: ${current.label}` : current.label} /> : null}
          </div>
        );
      })}
    </>
  );
}
