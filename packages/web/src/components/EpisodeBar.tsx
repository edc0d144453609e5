// The Kleptonomicon episode bar: where the Episode is (Opening Credits,
// Freeplay, an Encounter's Initiative / Main / Pause / Reward, Closing
// Credits) and, for the GM, the phase changes the ruleset allows next. The
// server decides every change; a refusal shows in the rejection toast.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { ENCOUNTER_PHASE_NAMES, ENCOUNTER_STEPS, EPISODE_STEPS, PHASE_NAMES, beatsOf, edgeSaveLines, edgeSplitNote, episodeOf, experienceOf, nextSteps, phaseLabel, secondaryXpOf, turnSheetCommand, turnSheetsOf, type Step, type TurnSheetShown } from '../lib/episode.ts';
import { sentenceOf } from '../lib/words.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { endCommands } from '../lib/fightSummary.ts';
import { oneStep } from '../lib/foes.ts';
import { Field } from './Field.tsx';
import { FreeplayActions } from './Freeplay.tsx';
import { lazyPanel } from './LazyPanels.tsx';
import type { Ask } from '../lib/attack.ts';
import type { Send } from './types.ts';

// The GM's Episode rules (cold open, loose order, rulings, Experience, resources): a chunk of its own, which a phone never loads.
const EpisodeTools = lazyPanel(() => import('./EpisodeTools.tsx').then((m) => m.EpisodeTools), 'episode-tools');

export function EpisodeBar({ world, gm, send, mine, ask }: { world: World; gm: boolean; send: Send; mine?: readonly string[]; ask?: Ask }) {
  const ep = episodeOf(world);
  const steps = gm ? nextSteps(ep) : [];
  return (
    <section class={gm ? 'episode-bar' : 'panel episode-bar'} aria-labelledby="episode-title" data-testid="episode-bar">
      <h2 id="episode-title" class="episode-title">
        {ep.episode > 0 ? `Episode ${ep.episode}` : 'Episode'}
      </h2>
      <p class="episode-now" aria-live="polite">
        <span class="sr-only">Now: </span>
        <strong data-testid="episode-phase" data-phase={ep.phase} data-encounter-phase={ep.encounterPhase ?? ''}>
          {phaseLabel(ep)}
        </strong>
      </p>
      <ol class="episode-steps" aria-label="Episode phases">
        {EPISODE_STEPS.map((p) => (
          <li key={p} class={p === ep.phase ? 'current' : ''} aria-current={p === ep.phase ? 'step' : undefined}>
            {PHASE_NAMES[p]}
            {p === 'encounter' && ep.phase === 'encounter' ? (
              <ol class="episode-substeps" aria-label="Encounter phases">
                {ENCOUNTER_STEPS.map((s) => (
                  <li key={s} class={s === ep.encounterPhase ? 'current' : ''} aria-current={s === ep.encounterPhase ? 'step' : undefined}>
                    {ENCOUNTER_PHASE_NAMES[s]}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
      {ep.phase === 'encounter' && ep.encounterPhase !== 'reward' ? <Beats world={world} /> : null}
      {ep.phase === 'encounter' ? <EdgeSaves world={world} /> : null}
      {gm ? <TurnSheets world={world} send={send} /> : mine !== undefined ? <MyTurnSheet world={world} mine={mine} /> : null}
      {gm && ep.phase === 'encounter' && ep.encounterPhase === 'reward' ? <SecondaryXp world={world} send={send} /> : null}
      {gm ? <Experience world={world} send={send} /> : null}
      {gm && ask !== undefined ? <EpisodeTools world={world} send={send} ask={ask} /> : null}
      {ask !== undefined && (gm || mine !== undefined) ? <FreeplayActions world={world} gm={gm} send={send} ask={ask} {...(mine !== undefined ? { mine } : {})} /> : null}
      {gm ? (
        <div class="row episode-actions" role="group" aria-label="Next phase">
          {steps.map((s) => (
            <StepControl key={`${s.to}-${s.command?.type ?? 'none'}`} step={s} world={world} send={send} />
          ))}
          {ep.phase === 'encounter' && ep.encounterPhase === 'initiative' ? <span class="small muted">The turn order is being set in the Encounter panel; Main begins with the first turn.</span> : null}
        </div>
      ) : null}
    </section>
  );
}

function Beats({ world }: { world: World }) {
  const beats = beatsOf(world);
  if (beats.length === 0) return null;
  return (
    <ul class="chips small episode-beats" aria-label="Beats left this round" data-testid="episode-beats">
      {beats.map((b) => (
        <li key={b.id} class={`badge ${b.left === 0 ? 'warn' : ''}`}>
          {b.name}: {b.left}/{b.size} Beats{b.owed > 0 ? ` (${b.owed} owed from the next turn)` : ''}
        </li>
      ))}
    </ul>
  );
}

function StepControl({ step, world, send }: { step: Step; world: World; send: Send }) {
  const [halve, setHalve] = useState(false);
  const [beatBy, setBeatBy] = useState('');
  if (!step.command) {
    return (
      <span class="small muted" data-testid="episode-hint">
        {step.label}: {step.hint}
      </span>
    );
  }
  const type = step.command.type;
  if (type === 'kleptonomicon.endEpisode') {
    return (
      <span class="row">
        <label class="inline">
          <input type="checkbox" checked={halve} onChange={(e) => setHalve(e.currentTarget.checked)} /> Halve the resets
        </label>
        <button class="primary" onClick={() => void send({ type, halve })}>
          {step.label}
        </button>
      </span>
    );
  }
  if (type === 'kleptonomicon.resume') {
    // Ending the Pause with a Beat costs the spender that Beat on their next turn (004 "Pause Phase").
    const beats = beatsOf(world);
    return (
      <span class="row">
        <Field id="ep-resume-by" label="Ended by">
          <select id="ep-resume-by" value={beatBy} onChange={(e) => setBeatBy(e.currentTarget.value)}>
            <option value="">nobody's Beat</option>
            {beats.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}'s Beat ({b.left} left)
              </option>
            ))}
          </select>
        </Field>
        <button class="primary" onClick={() => void send({ type, ...(beatBy ? { endedWithBeatBy: beatBy } : {}) })}>
          {step.label}
        </button>
      </span>
    );
  }
  // Ending the fight here writes its summary as the tracker's End does (ADR 90).
  const enc = encounterOf(world);
  return (
    <button class={step.to === 'pause' ? '' : 'primary'} onClick={() => void send(type === 'encounter.end' && enc !== null && enc.active ? oneStep(endCommands(world, enc)) : { type })}>
      {step.label}
    </button>
  );
}

/** The player's own characters' Edge Save and Sneaky, as the turn order will read them (004 "Turn Order"). */
function MyTurnSheet({ world, mine }: { world: World; mine: readonly string[] }) {
  const rows = turnSheetsOf(world, mine);
  if (rows.length === 0) return null;
  return (
    <ul class="chips small" aria-label="Your Edge Save" data-testid="my-edge-save">
      {rows.map((r) => (
        <li key={r.id} class="badge">
          {r.name}: {r.line}
        </li>
      ))}
    </ul>
  );
}

/** The GM sets each PC's Edge Save modifier and Sneaky on the sheet; the Edge Saves at the next Encounter read them. */
function TurnSheets({ world, send }: { world: World; send: Send }) {
  const rows = turnSheetsOf(world);
  if (rows.length === 0) return null;
  return (
    <details class="episode-sheets" data-testid="edge-save-sheets">
      <summary>Edge Saves and Sneaky</summary>
      {rows.map((r) => (
        <TurnSheetRow key={r.id} row={r} send={send} />
      ))}
    </details>
  );
}

function TurnSheetRow({ row, send }: { row: TurnSheetShown; send: Send }) {
  const [edge, setEdge] = useState(row.edgeSave === null ? '' : String(row.edgeSave));
  const [sneaky, setSneaky] = useState(row.sneaky);
  const [problem, setProblem] = useState<string | null>(null);
  const id = `ep-edge-${row.id}`;
  return (
    <form
      class="row"
      aria-label={`${row.name}'s Edge Save`}
      onSubmit={(e) => {
        e.preventDefault();
        const c = turnSheetCommand(row.id, edge, sneaky);
        setProblem(c.ok ? null : c.message);
        if (c.ok) void send(c.command);
      }}
    >
      <Field id={id} label={`${row.name}: Edge Save`}>
        <input id={id} inputMode="numeric" maxLength={4} size={4} value={edge} onInput={(e) => setEdge(e.currentTarget.value)} />
      </Field>
      <label class="inline">
        <input type="checkbox" checked={sneaky} onChange={(e) => setSneaky(e.currentTarget.checked)} /> Sneaky
      </label>
      <button type="submit" class="small">
        Save
      </button>
      <span class="small muted">{row.line}</span>
      {problem !== null ? (
        <span class="small" role="alert">
          {problem}
        </span>
      ) : null}
    </form>
  );
}

/**
 * The Reward phase: every PC got the Encounter's point; the GM may give a
 * second one for secondary goals (004 "Reward Phase"), once per PC per Encounter.
 */
function SecondaryXp({ world, send }: { world: World; send: Send }) {
  const rows = secondaryXpOf(world);
  const [picked, setPicked] = useState<readonly string[]>([]);
  const [msg, setMsg] = useState<string | null>(null);
  if (rows.length === 0) return null;
  const open = rows.filter((r) => !r.awarded);
  const chosen = picked.filter((id) => open.some((r) => r.id === id));
  return (
    <form
      class="row episode-xp"
      aria-label="Second XP point for secondary goals"
      data-testid="secondary-xp"
      onSubmit={async (e) => {
        e.preventDefault();
        if (chosen.length === 0) return setMsg('Tick who met a secondary goal first.');
        const r = await send({ type: 'kleptonomicon.awardSecondaryXp', characterIds: [...chosen] });
        setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
        if (r.ok) setPicked([]);
      }}
    >
      <span class="small">Secondary goals (a second XP point):</span>
      {rows.map((r) => (
        <label key={r.id} class="inline small">
          <input
            type="checkbox"
            disabled={r.awarded}
            checked={r.awarded || chosen.includes(r.id)}
            onChange={(e) => setPicked(e.currentTarget.checked ? [...chosen, r.id] : chosen.filter((x) => x !== r.id))}
          />{' '}
          {r.name} ({r.xp} XP{r.awarded ? ', second point given' : ''})
        </label>
      ))}
      <button type="submit" class="small" disabled={open.length === 0}>
        Award the second point
      </button>
      {msg !== null ? (
        <span class="error small" role="alert">
          {msg}
        </span>
      ) : null}
    </form>
  );
}

/** Each PC's level and Experience, with the GM's "Level up" (004 "Experience": the GM says when it is enough). */
function Experience({ world, send }: { world: World; send: Send }) {
  const rows = experienceOf(world);
  const [msg, setMsg] = useState<string | null>(null);
  if (rows.length === 0) return null;
  return (
    <div class="row small episode-xp" role="group" aria-label="Experience and levels" data-testid="experience">
      <span>Experience (the GM decides when it is enough):</span>
      {rows.map((r) => (
        <span key={r.id} class="inline">
          {r.name}: level {r.level}, {r.xp} XP{' '}
          <button
            type="button"
            class="small"
            aria-label={`Level up ${r.name} to level ${r.level + 1}`}
            onClick={async () => {
              const res = await send({ type: 'kleptonomicon.levelUp', characterId: r.id, gmApproves: true });
              setMsg(res.ok ? null : sentenceOf(res.rejection, namesOf(world)));
            }}
          >
            Level up
          </button>
        </span>
      ))}
      {msg !== null ? (
        <span class="error small" role="alert">
          {msg}
        </span>
      ) : null}
    </div>
  );
}

/** Which Edge Saves passed or failed for each PC, and why one kind of foe fills two groups (004 "Turn Order"). */
function EdgeSaves({ world }: { world: World }) {
  const lines = edgeSaveLines(world);
  const split = edgeSplitNote(world);
  if (lines.length === 0 && split === null) return null;
  return (
    <details class="small episode-edge-saves" data-testid="edge-saves">
      <summary>Edge Saves this Encounter</summary>
      <ul>
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      {split !== null ? <p class="muted">{split}</p> : null}
    </details>
  );
}
