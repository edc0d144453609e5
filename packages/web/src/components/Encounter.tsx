// The encounter tracker: renders whatever world.ext.encounter holds in this
// viewer's view (the server already removed what the viewer may not see).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Combatant, EncounterState, World } from '@tablekeeper/engine';
import { isDefeated } from '@tablekeeper/engine';
import { canGoBack, nextCommand, turnAnnouncement } from '../lib/turns.ts';
import { sheetTrackOf } from '../lib/sheetTrack.ts';
import { conditionName, conditionsOn, deathSavesOf, displayOrder, durationLabel, encounterOf, namesOf, onDeckOf, pipsOf, placementLabel, roundWords, tracksOf } from '../lib/encounter.ts';
import { actionsQueryOf, capabilitiesOf, fallChoiceWaiting, hasPanel, keptSheetRulesOf } from '@tablekeeper/rulesets/browser';
import type { Send } from './types.ts';
import type { Ask } from '../lib/attack.ts';
import { ActionsPanel, AddCombatant, EncounterBuilder, SpotlightStart, EndEncounter, EscalationControls, FightSummary, GmRowParts, HeldActions, MoveButtons, OsrMoralePrompt, ReactionPrompts, SheetEditor, TurnTimer } from './LazyPanels.tsx';
import { timerOf } from '@tablekeeper/engine/timer';

export interface EncounterProps {
  readonly world: World;
  readonly gm: boolean;
  readonly send: Send;
  /** Combatant ids this viewer controls (player view highlights and acts for them). */
  readonly mine?: readonly string[];
  /** A phone's characters: a fortify-or-fall choice raised outside the running fight waits on one of them (ADR 117). */
  readonly characters?: readonly string[];
  /** Module queries (TableClient.query): with it, the attack panel shows exact odds. */
  readonly ask?: Ask;
  /** What undo would take back (the view's undoLabel): "Previous turn" is offered when it is a turn change. */
  readonly undoLabel?: string | null;
  /** The same in words with names ("end of Kira's turn"), for the Previous turn button's title. */
  readonly undoWords?: string | null;
  /** The table's status query (`<ruleset>.status`), which spectators may ask too: the escalation die comes from it. Defaults to `ask`. */
  readonly askStatus?: Ask;
}

export function EncounterPanel({ world, gm, send, mine = [], characters, ask, undoLabel = null, undoWords = null, askStatus = ask }: EncounterProps) {
  const enc = encounterOf(world);
  // A spotlight ruleset (Daggerheart, 000) rolls no initiative: its board starts the conflict and adds adversaries.
  const spotlight = capabilitiesOf(world.rulesetId).spotlightTurns;
  const esc = useEscalation(world, enc, askStatus);
  return (
    <section class="panel area-encounter" aria-labelledby="enc-title">
      <h2 id="enc-title">
        <span>Encounter</span>
        {enc?.active ? <RoundBadge enc={enc} world={world} esc={esc} /> : null}
      </h2>
      {gm && enc?.active && esc !== null ? <EscalationControls world={world} enc={enc} esc={esc} send={send} /> : null}
      {!enc || !enc.active ? (
        <>
          <p class="muted" data-testid="no-encounter">
            {enc && enc.roster.length > 0 ? `${(enc.number ?? 1) > 1 ? `Encounter ${enc.number}` : 'The encounter'} has ended.` : 'No encounter running.'}
          </p>
          {gm && enc && enc.roster.length > 0 ? <FightSummary world={world} enc={enc} send={send} ask={ask} /> : null}
          {/* A teams fortify-or-fall choice raised between fights (ADR 112): the fight's prompt, its chunk loaded only then. */}
          {ask && fallChoiceWaiting(world) ? <ReactionPrompts world={world} send={send} ask={ask} gm={gm} mine={mine} characters={characters} /> : null}
          {gm && spotlight ? (
            // GM-only words in the builder's chunk: the phone's first download does not carry them.
            <SpotlightStart />
          ) : gm ? (
            <EncounterBuilder world={world} send={send} last={enc} />
          ) : null}
        </>
      ) : (
        <>
          <Tracker enc={enc} world={world} gm={gm} send={send} ask={ask} mine={mine} undoLabel={undoLabel} undoWords={undoWords} />
          {/* Who must answer is worked out in the prompts' own chunk (loaded with the actions), not in the phone's first download;
              a choice raised for one of this phone's characters outside this fight shows here too, at once (ADR 117). */}
          {ask ? <ReactionPrompts world={world} send={send} ask={ask} gm={gm} mine={mine} characters={characters} /> : null}
          {gm && hasPanel(world.rulesetId, 'fightSummary') ? <OsrMoralePrompt world={world} enc={enc} send={send} ask={ask} /> : null}
          {ask && enc.active && actionsQueryOf(world.rulesetId) !== null ? <ActionsPanel world={world} enc={enc} gm={gm} send={send} ask={ask} mine={mine} /> : null}
          {gm && keptSheetRulesOf(world.rulesetId) !== null ? <SheetEditor world={world} enc={enc} send={send} /> : null}
        </>
      )}
    </section>
  );
}


function RoundBadge({ enc, world, esc }: { enc: EncounterState; world: World; esc: number | null }) {
  return (
    <span class="row">
      {(enc.number ?? 1) > 1 ? <span class="badge">Encounter {enc.number}</span> : null}
      <span class="badge accent" data-testid="round">
        {roundWords(enc, world)}
      </span>
      {esc !== null ? (
        // Labelled on screen (GM review: a bare "1" under the round said nothing); +N is what it adds to attacks (002 "Escalation Die").
        <span class="row" data-testid="escalation">
          <span class="small muted" aria-hidden="true">
            Escalation die
          </span>
          <span class="escalation" title="Escalation die: added to the heroes' attacks" role="img" aria-label={`Escalation die ${esc}`}>
            {esc > 0 ? `+${esc}` : esc}
          </span>
        </span>
      ) : null}
    </span>
  );
}

/**
 * The escalation die (002 "Escalation Die") as the ruleset's status query answers
 * it on this viewer's view: null where the ruleset has none, or nobody may ask.
 * Asked again only when what it depends on changes (the round, the die's own
 * state, the table's settings), never per render.
 */
function useEscalation(world: World, enc: EncounterState | null, askStatus: Ask | undefined): number | null {
  const [esc, setEsc] = useState<number | null>(null);
  const asker = useRef(askStatus);
  asker.current = askStatus;
  // Asked only while a fight runs (the die is a fight's); the panel above the fight and the GM's controls share it.
  const active = enc?.active === true;
  const key = JSON.stringify([world.rulesetId, enc?.number ?? 1, enc?.round, enc?.escalation ?? null, world.settings, active]);
  const canAsk = askStatus !== undefined;
  useEffect(() => {
    const ask = asker.current;
    if (ask === undefined || !active) return;
    let live = true;
    void ask(`${world.rulesetId}.status`, {}).then((a) => {
      if (live && a.ok) setEsc(escalationOfStatus(a.result));
    });
    return () => {
      live = false;
    };
  }, [key, canAsk]);
  // Until the answer for the current round arrives, the last one shown stays (no flicker between rounds).
  return esc;
}

/** `encounter.escalation` of a status answer: a number, or null where the ruleset has no die. */
function escalationOfStatus(result: unknown): number | null {
  // Optional chaining reads any shape safely (a number or string answer has no such field): anything else is no die.
  const e = (result as { encounter?: { escalation?: unknown } | null } | null | undefined)?.encounter?.escalation;
  return typeof e === 'number' ? e : null;
}

function Tracker({ enc, world, gm, send, ask, mine, undoLabel, undoWords }: { enc: EncounterState; world: World; gm: boolean; send: Send; ask: Ask | undefined; mine: readonly string[]; undoLabel: string | null; undoWords: string | null }) {
  const order = displayOrder(enc);
  const deck = onDeckOf(enc);
  const acted = new Set(enc.acted);
  // Pool sizes come with the view (the kernel's projector adds the economy it runs).
  const sizes = Object.fromEntries(Object.entries(enc.economyDef?.pools ?? {}).map(([k, p]) => [k, p.size]));
  const current = enc.current ? enc.combatants[enc.current] : undefined;
  // At a waiting choice the GM's N picks its default (ADR 77): the button names whom (review 10).
  const to = gm && enc.pending ? enc.combatants[nextCommand(enc).id ?? '']?.name : undefined;
  const canEnd = gm || (current !== undefined && mine.includes(current.id));
  const listRef = useRef<HTMLOListElement>(null);
  // The current turn is always on screen: its row scrolls into view when the turn passes. Not where the GM passes
  // the spotlight from its own panel above (Daggerheart): each pass would pull the page away from the button pressed.
  const spotlight = gm && capabilitiesOf(world.rulesetId).spotlightTurns;
  useEffect(() => {
    if (spotlight) return;
    const row = listRef.current?.querySelector<HTMLElement>('li[aria-current=step]');
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [enc.current]);
  // Never a dead end: nobody acting, nothing to choose, and nobody able to act.
  // The tracker shows only a running fight (EncounterPanel), so `enc.active` is never tested below.
  const stuck = !current && !enc.pending;
  return (
    <>
      {/* The one live region for turns (review 13 #14): the visible line below, the "Your turn" banner and the log are not read
          out, so a screen reader hears each turn change once, in the viewer's words. */}
      <p class="sr-only" aria-live="polite" data-testid="turn-announcer">
        {turnAnnouncement(enc, gm, mine)}
      </p>
      <p data-testid="now-acting">
        {current ? (
          <>
            Now acting: <strong>{current.name}</strong>
            {deck && enc.combatants[deck] ? <span class="muted"> · on deck: {enc.combatants[deck]!.name}</span> : null}
          </>
        ) : enc.pending ? (
          // The prompt is the chooser's instruction ("Pass the spotlight"): a phone waiting on the GM is told whose move it is.
          <>{!gm && enc.pending.chooser.kind === 'gm' ? 'Waiting for the GM' : 'Waiting'}: {enc.pending.prompt}</>
        ) : (
          'Between turns'
        )}
      </p>
      {/* Loaded where it shows: the GM's controls, or a phone while a turn time is set (most tables never set one). */}
      {gm || timerOf(world).seconds > 0 ? <TurnTimer world={world} gm={gm} send={send} /> : null}
      {enc.pending && (gm || enc.pending.chooser.kind === 'players') ? <DecisionPicker enc={enc} send={send} gm={gm} mine={mine} /> : null}
      <div class="row" style={{ marginBottom: '8px' }}>
        {canEnd ? (
          <button class="primary" onClick={() => send(gm ? nextCommand(enc) : { type: 'encounter.endTurn', ...(enc.current !== null ? { id: enc.current } : {}) })} aria-keyshortcuts={gm ? 'n' : undefined} data-testid="next-turn">
            {/* Whose turn it ends, so a late click is seen to be for the turn shown (review 7). */}
            {current ? `End ${current.name}'s turn` : `Next turn${to ? `: ${to}` : ''}`}
            {gm ? <kbd aria-hidden="true">N</kbd> : null}
          </button>
        ) : null}
        {gm ? (
          <button onClick={() => send({ type: 'history.undo' })} disabled={!canGoBack(undoLabel)} aria-keyshortcuts="p" title={canGoBack(undoLabel) && undoWords !== null ? `Takes back the ${undoWords}` : 'Takes back the last turn change'} data-testid="prev-turn">
            Previous turn <kbd aria-hidden="true">P</kbd>
          </button>
        ) : null}
        {/* Its GM-only chunk also says when nobody can act (the phone's bundle does not carry the words). */}
        {gm ? <EndEncounter world={world} send={send} primary={stuck} /> : null}
      </div>
      <ol class="combatants" aria-label="Turn order" ref={listRef} tabIndex={gm ? 0 : undefined}>
        {order.map((c) => (
          <CombatantRow key={c.id} c={c} enc={enc} gm={gm} send={send} ask={ask} current={c.id === enc.current} ondeck={c.id === deck} acted={acted.has(c.id)} sizes={sizes} mine={mine.includes(c.id)} world={world} />
        ))}
      </ol>
      {gm && !capabilitiesOf(world.rulesetId).spotlightTurns ? <AddCombatant send={send} world={world} enc={enc} /> : null}
    </>
  );
}

function DecisionPicker({ enc, send, gm, mine }: { enc: EncounterState; send: Send; gm: boolean; mine: readonly string[] }) {
  const d = enc.pending!;
  const options = d.options.filter((id) => gm || mine.includes(id));
  if (options.length === 0) return null;
  return (
    <div class="row" role="group" aria-label={d.prompt}>
      {options.map((id) => (
        <button key={id} class="small" onClick={() => send({ type: 'encounter.choose', id })}>
          {enc.combatants[id]?.name ?? id}
        </button>
      ))}
    </div>
  );
}

function CombatantRow(props: { c: Combatant; enc: EncounterState; gm: boolean; send: Send; ask: Ask | undefined; current: boolean; ondeck: boolean; acted: boolean; sizes: { [p: string]: number }; mine: boolean; world: World }) {
  const { c, enc, gm, send, ask, current, ondeck, acted, sizes, mine, world } = props;
  const stats = { ...(c.characterId ? world.characters[c.characterId]?.stats : undefined), ...c.stats, ...sheetTrackOf(world, c) };
  const tracks = tracksOf(stats, world.rulesetId);
  const conds = conditionsOn(enc, c.id);
  const names = conds.length > 0 ? namesOf(world) : {};
  const saves = deathSavesOf(stats);
  const pips = current || mine ? pipsOf(enc.economy?.[c.id], sizes) : [];
  // A foe whose HP slots are all marked (Daggerheart, 000) is down as surely as one at 0 HP: greyed and marked, as the sequencer skips it.
  const defeated = isDefeated(c) || (c.kind === 'npc' && tracks.some((t) => t.key === 'hpMarked' && t.states.includes('down')));
  const cls = ['combatant', current ? 'current' : '', ondeck ? 'ondeck' : '', acted ? 'acted' : '', defeated ? 'defeated' : '', c.visibility !== 'visible' ? 'hidden-to-players' : ''].join(' ');
  return (
    <li class={cls} aria-current={current ? 'step' : undefined} data-testid="combatant">
      <div class="row">
        <span class="name grow">
          {c.name}
          {mine ? (
            <span class="badge ok" style={{ marginLeft: '6px' }}>
              you
            </span>
          ) : null}
        </span>
        {current ? <span class="badge accent">acting</span> : ondeck ? <span class="badge">on deck</span> : acted ? <span class="badge">done</span> : null}
        {defeated ? (
          <span class="badge bad" data-testid="defeated">
            defeated
          </span>
        ) : c.incapacitated ? (
          <span class="badge bad">out</span>
        ) : null}
        <span class="small muted">{placementLabel(c.placement)}</span>
        {gm ? <MoveButtons c={c} enc={enc} send={send} rulesetId={world.rulesetId} /> : null}
      </div>
      {tracks.map((t) => (
        <div key={t.label} class="small">
          <div class="row">
            <span class="grow">
              {t.label} {t.value}/{t.max}
            </span>
            {t.states.map((s) => (
              <span key={s} class={`badge ${s === 'down' || s === 'dead' ? 'bad' : 'warn'}`}>
                {s}
              </span>
            ))}
          </div>
          <div class={`hpbar ${t.states.join(' ')}`} role="meter" aria-label={`${c.name} ${t.label}`} aria-valuemin={0} aria-valuemax={t.max} aria-valuenow={t.value}>
            <span style={{ width: `${Math.max(0, Math.min(100, (100 * t.value) / t.max))}%` }} />
          </div>
          {t.note !== undefined ? <div class="muted" data-testid="life-note">{t.note}</div> : null}
        </div>
      ))}
      {saves ? (
        <div class="small">
          Death saves: <span aria-label={`${saves.successes} successes`}>{'✔'.repeat(saves.successes) || '–'}</span> / <span aria-label={`${saves.failures} failures`}>{'✘'.repeat(saves.failures) || '–'}</span>
        </div>
      ) : null}
      {pips.length > 0 ? (
        <div class="row small" aria-label="Actions left">
          {pips.map((p) => (
            <span key={p.pool} class="row" style={{ gap: '4px' }}>
              {p.pool}
              <span class="pips" role="img" aria-label={`${p.pool}: ${p.size - p.used} of ${p.size} left`}>
                {Array.from({ length: p.size }, (_, i) => (
                  <span key={i} class={i < p.size - p.used ? 'pip full' : 'pip'} />
                ))}
              </span>
            </span>
          ))}
        </div>
      ) : null}
      {(gm || mine) && (c.readied || enc.economy?.[c.id]?.extended) ? <HeldActions c={c} enc={enc} world={world} send={send} ask={ask} /> : null}
      {gm ? <GmRowParts c={c} world={world} send={send} /> : null}
      {conds.length > 0 ? (
        <ul class="chips list" aria-label="Conditions" style={{ display: 'flex' }}>
          {conds.map((x) => (
            <li key={x.id} class="badge warn" style={{ border: '1px solid' }}>
              {conditionName(enc, x.defId)}
              {x.stacks > 1 ? ` ×${x.stacks}` : ''}
              {durationLabel(x.duration, names) ? ` · ${durationLabel(x.duration, names)}` : enc.catalogue?.conditions.find((d) => d.id === x.defId)?.fleeting === true ? ' · fleeting' : ''}
              {gm ? (
                <button class="small" style={{ minHeight: '20px', padding: '0 4px', marginLeft: '4px' }} aria-label={`Remove ${conditionName(enc, x.defId)} from ${c.name}`} onClick={() => send({ type: 'condition.remove', conditionId: x.id })}>
                  ×
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
