// The Kleptonomicon's Episode as the episode bar shows it: where the table is
// and which phase changes the GM may ask for next. Which changes are legal
// comes from the ruleset's own transition tables (phases.ts, import-free but
// for types), through the rulesets' browser entry (ADR 7) so the rest of the
// ruleset stays out of the browser. The server still decides: a refused change comes back as a rule error.
import { BEATS_ECONOMY, EMPTY_ECONOMY, economyRemaining, type World } from '@tablekeeper/engine';
import { EDGE_SAVE_LIMIT, ENCOUNTER_TRANSITIONS, hasPanel, EPISODE_TRANSITIONS, getKlepto, kleptoSheetLine, kleptoSheetOf, type EncounterPhase, type EpisodePhase } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';

export type { EncounterPhase, EpisodePhase };

export interface EpisodeShown {
  readonly episode: number;
  readonly phase: EpisodePhase;
  readonly encounterPhase: EncounterPhase | null;
}

export function episodeOf(world: World): EpisodeShown {
  const st = getKlepto(world);
  return { episode: st.episode, phase: st.phase, encounterPhase: st.phase === 'encounter' ? (st.encounterPhase ?? 'main') : null };
}

export const PHASE_NAMES: { readonly [p in EpisodePhase]: string } = {
  between: 'Between Episodes',
  opening: 'Opening Credits',
  freeplay: 'Freeplay',
  encounter: 'Encounter',
  closing: 'Closing Credits',
};

export const ENCOUNTER_PHASE_NAMES: { readonly [p in EncounterPhase]: string } = {
  initiative: 'Initiative',
  main: 'Main',
  pause: 'Pause',
  reward: 'Reward',
};

/** "Encounter · Pause", "Freeplay". */
export function phaseLabel(e: Pick<EpisodeShown, 'phase' | 'encounterPhase'>): string {
  const top = PHASE_NAMES[e.phase] ?? e.phase;
  return e.phase === 'encounter' && e.encounterPhase !== null ? `${top} · ${ENCOUNTER_PHASE_NAMES[e.encounterPhase] ?? e.encounterPhase}` : top;
}

/** The Episode's phases in play order, for the bar's step list (between Episodes is not a step). */
export const EPISODE_STEPS: readonly EpisodePhase[] = ['opening', 'freeplay', 'encounter', 'closing'];
export const ENCOUNTER_STEPS: readonly EncounterPhase[] = ['initiative', 'main', 'pause', 'reward'];

/** How the GM asks for each phase (the Encounter itself starts from the encounter tracker). */
const EPISODE_COMMAND: { readonly [to in EpisodePhase]: { readonly type: string; readonly label: string } | null } = {
  opening: { type: 'kleptonomicon.startEpisode', label: 'Start an Episode' },
  freeplay: { type: 'kleptonomicon.freeplay', label: 'Go to Freeplay' },
  encounter: null,
  closing: { type: 'kleptonomicon.closingCredits', label: 'Roll the Closing Credits' },
  between: { type: 'kleptonomicon.endEpisode', label: 'End the Episode' },
};

const ENCOUNTER_COMMAND: { readonly [to in EncounterPhase]: { readonly type: string; readonly label: string } | null } = {
  initiative: null,
  // Main follows Initiative by itself, when the first turn starts; from a Pause it is a resume.
  main: { type: 'kleptonomicon.resume', label: 'Resume (Main phase)' },
  pause: { type: 'kleptonomicon.pause', label: 'Pause' },
  reward: { type: 'encounter.end', label: 'End the fight: Reward phase' },
};

export interface Step {
  /** The phase this step leads to (the top-level phase, or the Encounter's sub-phase). */
  readonly to: EpisodePhase | EncounterPhase;
  readonly label: string;
  /** null: no command from the bar (the GM starts an Encounter in the tracker). */
  readonly command: { readonly type: string } | null;
  readonly hint?: string;
}

/** The phase changes the ruleset allows from here, as the bar offers them. */
export function nextSteps(e: Pick<EpisodeShown, 'phase' | 'encounterPhase'>): Step[] {
  const out: Step[] = [];
  if (e.phase === 'encounter') {
    for (const to of ENCOUNTER_STEPS) {
      const cmd = ENCOUNTER_COMMAND[to];
      if (cmd && ENCOUNTER_TRANSITIONS[to].includes(e.encounterPhase)) out.push({ to, label: cmd.label, command: { type: cmd.type } });
    }
    // The Reward phase hands back to Freeplay (004 "Reward Phase").
    if (e.encounterPhase === 'reward') out.push({ to: 'freeplay', label: EPISODE_COMMAND.freeplay!.label, command: { type: EPISODE_COMMAND.freeplay!.type } });
    return out;
  }
  for (const to of [...EPISODE_STEPS, 'between'] as EpisodePhase[]) {
    if (!EPISODE_TRANSITIONS[to].includes(e.phase)) continue;
    const cmd = EPISODE_COMMAND[to];
    out.push(cmd ? { to, label: cmd.label, command: { type: cmd.type } } : { to, label: 'Start an Encounter', command: null, hint: 'Build and start it in the Encounter panel; the Initiative phase begins with it.' });
  }
  return out;
}

/**
 * Why an Encounter cannot start yet, and the step that leads there (004: an
 * Episode opens with its Opening Credits, then Freeplay, from which an
 * Encounter starts). null when one may start now (review 9: "Roll initiative"
 * jumped from Between Episodes to the Main phase, and nothing said so).
 */
export function encounterGate(world: World): EncounterGate | null {
  const { phase, episode } = getKlepto(world);
  // The engine's rule (ADR 81): Between Episodes is open only to a table that never started one, so only there is this advice.
  if (phase === 'between' && episode === 0)
    return { reason: 'No Episode played yet: this fight may start now. To play it inside an Episode (004), start one, then go to Freeplay.', step: EPISODE_COMMAND.opening!, blocks: false };
  if (phase === 'between') return { reason: 'Between Episodes: the last Episode has ended, and a fight is played inside one. Start the next Episode (its Opening Credits), then go to Freeplay; the Encounter starts from there.', step: EPISODE_COMMAND.opening!, blocks: true };
  if (phase === 'opening') return { reason: 'Opening Credits: introduce the characters, then go to Freeplay; the Encounter starts from there.', step: EPISODE_COMMAND.freeplay!, blocks: true };
  if (phase === 'closing') return { reason: 'Closing Credits: this Episode is ending. End it, then start the next Episode for another Encounter.', step: EPISODE_COMMAND.between!, blocks: true };
  return null;
}

/** What the builder says about starting a fight in this Episode phase, the step that leads on, and whether the engine would refuse the start now. */
export interface EncounterGate {
  readonly reason: string;
  readonly step: { readonly type: string; readonly label: string };
  readonly blocks: boolean;
}

export interface BeatsShown {
  readonly id: string;
  readonly name: string;
  readonly left: number;
  readonly size: number;
  /** Beats already spent from the next turn (004 "Pause Phase"). */
  readonly owed: number;
}

/** Beats left this round for each combatant in the encounter (two a round, 004 "Using Abilities"). */
export function beatsOf(world: World): BeatsShown[] {
  const enc = encounterOf(world);
  if (!enc) return [];
  const size = BEATS_ECONOMY.pools['beats']?.size ?? 2;
  return enc.roster
    .map((id) => enc.combatants[id])
    .filter((c) => c !== undefined)
    .map((c) => {
      const econ = enc.economy?.[c.id] ?? EMPTY_ECONOMY;
      // Beats owed to the next turn (a Pause ended on one's own turn) show beside what is left now.
      return { id: c.id, name: c.name, left: Math.max(0, economyRemaining(BEATS_ECONOMY, econ, 'beats')), size: size + (econ.granted?.['beats'] ?? 0), owed: econ.owed?.['beats'] ?? 0 };
    });
}

export { EDGE_SAVE_LIMIT };

export interface TurnSheetShown {
  readonly id: string;
  readonly name: string;
  /** The sheet's Edge Save modifier, or null when the sheet holds none. */
  readonly edgeSave: number | null;
  readonly sneaky: boolean;
  /** "Edge Save +2 · Sneaky". */
  readonly line: string;
}

/** The PCs' Edge Save and Sneaky as their sheets hold them (004 "Turn Order"); `only` keeps a seat's own. */
export function turnSheetsOf(world: World, only?: readonly string[]): TurnSheetShown[] {
  return Object.values(world.characters)
    .filter((c) => c.kind === 'pc' && (only === undefined || only.includes(c.id)))
    .map((c) => {
      const s = kleptoSheetOf(c.stats);
      return { id: c.id, name: c.name, edgeSave: s.edgeSave, sneaky: s.sneaky, line: kleptoSheetLine(s) };
    });
}

/** The command that saves the GM's entry, or why the entry is not a whole number in range. */
export function turnSheetCommand(characterId: string, edgeSave: string, sneaky: boolean): { ok: true; command: { type: 'kleptonomicon.setSheet'; characterId: string; edgeSave?: number; sneaky: boolean } } | { ok: false; message: string } {
  const t = edgeSave.trim();
  if (t === '') return { ok: true, command: { type: 'kleptonomicon.setSheet', characterId, sneaky } };
  const n = Number(t);
  if (!Number.isInteger(n) || Math.abs(n) > EDGE_SAVE_LIMIT) return { ok: false, message: `Edge Save must be a whole number from -${EDGE_SAVE_LIMIT} to ${EDGE_SAVE_LIMIT}` };
  return { ok: true, command: { type: 'kleptonomicon.setSheet', characterId, edgeSave: n, sneaky } };
}

export interface SecondaryXpShown {
  readonly id: string;
  readonly name: string;
  /** Experience points now (the Encounter's own point is already in). */
  readonly xp: number;
  /** Already given the second point in this Reward phase (004 "Reward Phase": at most one). */
  readonly awarded: boolean;
}

/**
 * In the Reward phase, the PCs who took part in the Encounter, for the GM's
 * second point for secondary goals (004 "Reward Phase"); empty in any other phase.
 */
export function secondaryXpOf(world: World): SecondaryXpShown[] {
  const st = getKlepto(world);
  const enc = encounterOf(world);
  if (st.phase !== 'encounter' || st.encounterPhase !== 'reward' || !enc) return [];
  const ids = [...new Set(enc.roster.map((id) => enc.combatants[id]).flatMap((c) => (c?.kind === 'pc' && c.characterId !== null && world.characters[c.characterId] !== undefined ? [c.characterId] : [])))];
  return ids.map((id) => ({ id, name: world.characters[id]!.name, xp: st.xp[id] ?? 0, awarded: st.secondaryAwarded.includes(id) }));
}

/**
 * Each PC's level and unspent Experience, for the GM's "Level up" (004 "Experience" sets no threshold: the GM
 * decides; review 11: XP piled up with no way to spend it). A character never levelled is level 1.
 */
export function experienceOf(world: World): { readonly id: string; readonly name: string; readonly level: number; readonly xp: number }[] {
  const st = getKlepto(world);
  return Object.values(world.characters)
    .filter((c) => c.kind === 'pc')
    .map((c) => ({ id: c.id, name: c.name, level: st.levels[c.id] ?? 1, xp: st.xp[c.id] ?? 0 }));
}

/**
 * Who may act outside an Encounter (004 Freeplay): the GM any PC, a player their own
 * (`mine`, character ids); nobody while an Encounter is running (its turn's actions hold the Test).
 */
export function freeplayActorsOf(world: World, mine: readonly string[] | null): { readonly id: string; readonly name: string }[] {
  const st = getKlepto(world);
  if (st.phase === 'encounter' && st.encounterPhase !== 'reward') return [];
  return Object.values(world.characters)
    .filter((c) => (mine === null ? c.kind === 'pc' : mine.includes(c.id)))
    .map((c) => ({ id: c.id, name: c.name }));
}

const obj = (v: unknown): { readonly [k: string]: unknown } | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as { readonly [k: string]: unknown }) : null);
const whole = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/**
 * The Edge Saves that placed each PC this Encounter (004 "Turn Order"), as this
 * viewer's view holds them: a phone's view leaves out hidden foe groups and
 * renumbers the rest (ADR 33), so nothing here names or counts a hidden foe.
 * "Alice: 8 vs foe group 1 (Guard) passed; 4 vs foe group 2 (Rat 1, Rat 2) failed: acts after foe group 2."
 */
export function edgeSaveLines(world: World): string[] {
  const enc = encounterOf(world);
  if (!enc || !enc.active || !hasPanel(world.rulesetId, 'episode')) return [];
  const members = (g: number): string[] =>
    enc.roster.flatMap((id) => {
      const c = enc.combatants[id];
      return c !== undefined && c.kind === 'npc' && whole(obj(c.placement)?.['group']) === g ? [c.name] : [];
    });
  const out: string[] = [];
  for (const id of enc.roster) {
    const c = enc.combatants[id];
    const p = obj(c?.placement);
    if (c === undefined || c.kind !== 'pc' || p === null) continue;
    if (p['unrolled'] === true) {
      out.push(`${c.name}: Edge Saves not rolled yet.`);
      continue;
    }
    const rolls = Array.isArray(p['rolls']) ? p['rolls'].map(obj).filter((r) => r !== null) : [];
    if (rolls.length === 0) continue;
    const saves = rolls.map((r) => {
      const g = whole(r['group']) ?? 0;
      const names = members(g);
      return `${String(whole(r['score']) ?? '?')} vs foe group ${g + 1}${names.length > 0 ? ` (${names.join(', ')})` : ''} ${r['failed'] === true ? 'failed' : 'passed'}`;
    });
    const slot = whole(p['slot']) ?? 0;
    out.push(`${c.name}: ${saves.join('; ')}: ${slot === 0 ? 'acts before the foes' : `acts after foe group ${slot}`}.`);
  }
  return out;
}

/**
 * Why one kind of foe fills more than one group: 004 asks for 2 to 4 foe groups,
 * so a single kind is split in two (the encounter builder does it). Null when no kind is split.
 */
export function edgeSplitNote(world: World): string | null {
  const enc = encounterOf(world);
  if (!enc || !enc.active || !hasPanel(world.rulesetId, 'episode')) return null;
  const groupsOfType = new Map<string, Set<number>>();
  for (const id of enc.roster) {
    const c = enc.combatants[id];
    const g = whole(obj(c?.placement)?.['group']);
    const t = c?.stats['creatureType'];
    if (c?.kind !== 'npc' || g === null || typeof t !== 'string' || t === '') continue;
    groupsOfType.set(t, new Set([...(groupsOfType.get(t) ?? []), g]));
  }
  const split = [...groupsOfType.entries()].filter(([, gs]) => gs.size > 1);
  if (split.length === 0) return null;
  return split.map(([t, gs]) => `${t} fill foe groups ${[...gs].sort((a, b) => a - b).map((g) => g + 1).join(' and ')}`).join('; ') + ': the turn order needs 2 to 4 foe groups (004 "Turn Order"), so one kind of foe is split.';
}
