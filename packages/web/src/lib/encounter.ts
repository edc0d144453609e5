// Pure helpers that read world.ext.encounter for display. The ruleset's
// sequencer runs on the server; the browser only needs a stable display order
// from the placements it sees (score, band, team, Edge Save slot), and falls
// back to join order for anything it does not recognise.
import type { Combatant, ConditionInstance, EconomyState, EncounterState, Json, World } from '@tablekeeper/engine';
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';

const BAND_ORDER = ['very-fast', 'fast', 'medium', 'slow', 'very-slow'];

function field(p: Json | undefined, k: string): Json | undefined {
  return p !== null && typeof p === 'object' && !Array.isArray(p) ? p[k] : undefined;
}
const num = (x: Json | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/** The encounter in a view, or null when the view has none (module not loaded, or no encounter yet). */
export function encounterOf(world: World | undefined): EncounterState | null {
  const raw = world?.ext?.['encounter'];
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const e = raw as unknown as Partial<EncounterState>;
  if (!e.combatants || !Array.isArray(e.roster)) return null;
  return e as EncounterState;
}

export function combatantsOf(enc: EncounterState): Combatant[] {
  return enc.roster.map((id) => enc.combatants[id]).filter((c): c is Combatant => c !== undefined);
}

/** Sort key for one combatant: lower acts earlier. */
function key(enc: EncounterState, c: Combatant): [number, number, number] {
  const p = c.placement;
  const score = num(field(p, 'score'));
  const slot = num(field(p, 'slot'));
  const band = field(p, 'band');
  const team = field(p, 'team');
  const tie = num(field(p, 'tie')) ?? 0;
  // A PC whose Score is withheld failed against a group hidden from this viewer, which acts after
  // the groups in view before it: it comes last in its slot (review 12 #5).
  if (slot !== null) return [slot, score === null ? 1e6 : -score, c.joined];
  // Players get the order itself where a foe's score is kept from them (ADR 33).
  const order = num(field(p, 'order'));
  if (order !== null) return [order, 0, c.joined];
  if (score !== null) return [-score, tie, c.joined];
  if (typeof band === 'string') return [BAND_ORDER.indexOf(band), c.kind === 'pc' ? 0 : 1, c.joined];
  if (typeof team === 'string') return [rank(field(enc.seq, 'order'), team), 0, c.joined];
  // A foe group (004 "Turn Order") acts after the PCs slotted before it and before those slotted after it
  // (slot N is "after group N", group N-1 here), its members in the sequencer's order (review 7).
  // (Its place among all the groups' members orders it within its own: the groups are listed in order.)
  const group = num(field(p, 'group'));
  const groups = field(enc.seq, 'groups');
  if (group !== null) return [group + 0.5, rank(Array.isArray(groups) ? groups.flat() : 0, c.id), c.joined];
  return [0, 0, c.joined];
}

/** Where `x` stands in a list the sequencer keeps (a team in the order, a foe in its group); one not listed comes after. */
function rank(list: Json | undefined, x: string): number {
  const i = Array.isArray(list) ? list.indexOf(x) : -1;
  return i < 0 ? 1e3 : i;
}

export function displayOrder(enc: EncounterState): Combatant[] {
  return combatantsOf(enc).sort((a, b) => {
    const ka = key(enc, a);
    const kb = key(enc, b);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}

/** Who is on deck, as the kernel's sequencer says (the server puts it in this viewer's view; a hidden one is never named). */
export function onDeckOf(enc: EncounterState): string | null {
  return enc.active && typeof enc.onDeck === 'string' && enc.combatants[enc.onDeck] !== undefined ? enc.onDeck : null;
}

export function placementLabel(p: Json): string {
  const score = num(field(p, 'score'));
  const band = field(p, 'band');
  const team = field(p, 'team');
  const slot = num(field(p, 'slot'));
  const group = num(field(p, 'group'));
  // An Edge Save slot (004 "Turn Order"): 0 acts before every foe group, N right after group N.
  if (slot !== null) return `${slot === 0 ? 'before the foes' : `after foe group ${slot}`}${score !== null ? ` (Edge Save ${score})` : ''}`;
  if (score !== null) return `init ${score}`;
  if (typeof band === 'string') return band.replace('-', ' ');
  if (typeof team === 'string') return `team ${team}`;
  if (group !== null) return `foe group ${group + 1}`;
  if (field(p, 'unrolled') === true) return 'not rolled';
  return '';
}

export function conditionsOn(enc: EncounterState, id: string): ConditionInstance[] {
  return Object.values(enc.conditions ?? {}).filter((c) => c.target === id);
}

/** What remains of a condition, in words; turn-timed ones name whose turn (never an id: unknown or hidden reads "their"). */
export function durationLabel(d: ConditionInstance['duration'], names: { readonly [id: string]: string } = {}): string {
  const whose = (id: string): string => (names[id] !== undefined ? `${names[id]}'s` : 'their');
  switch (d.kind) {
    case 'rounds':
      return `${d.rounds} round${d.rounds === 1 ? '' : 's'} left`;
    case 'turnStart':
      return `until the start of ${whose(d.of)} next turn`;
    case 'turnEnd':
      return `until the end of ${whose(d.of)} next turn`;
    case 'saveEnds':
      return 'save ends';
    case 'encounterEnd':
      return 'until the fight ends';
    case 'rest':
      return `until a ${d.rest} rest`;
    case 'indefinite':
      return '';
  }
}

/** A health-like track from stats: [label, value, max] for the first pair present. */
export interface Track {
  /** The stats key holding the value (hp, endurance...). */
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly max: number;
  /** Named states the rules give at this level. */
  readonly states: readonly string[];
  /** What the state means next, in words (death saves so far; an unconscious creature's risks). */
  readonly note?: string;
}

const TRACKS: readonly [string, string, string][] = [
  ['hp', 'maxHp', 'HP'],
  ['hitPoints', 'maxHitPoints', 'HP'],
  ['endurance', 'maxEndurance', 'Endurance'],
  ['health', 'maxHealth', 'Health'],
  ['stress', 'maxStress', 'Stress'],
];

const MARKED: readonly [string, string, string][] = [
  ['hpMarked', 'hpMax', 'HP marked'],
  ['stressMarked', 'stressMax', 'Stress marked'],
];

/** The word for HP at half or less, as the ruleset declares it (002 calls it staggered); none where the ruleset's text names no such state. */
export const halfHpWord = (rulesetId?: string): string | null => (rulesetId === undefined ? null : capabilitiesOf(rulesetId).halfHpWord);

export function tracksOf(stats: { readonly [k: string]: Json }, rulesetId?: string): Track[] {
  const out: Track[] = [];
  // Daggerheart counts marked slots up (000): one reading, the marked ones, where the sheet has slots (a GM review finding: "HP 6/6" beside "2 of 6 marked").
  const slots = MARKED.filter(([, m]) => (num(stats[m]) ?? 0) > 0);
  for (const [v, m, label] of slots) {
    const value = num(stats[v]) ?? 0;
    const max = num(stats[m])!;
    out.push({ key: v, label, value, max, states: value >= max ? [label === 'HP marked' ? 'down' : 'full'] : [] });
  }
  for (const [v, m, label] of TRACKS) {
    // One reading: a sheet with slots (a ruleset whose HP is slots, as Daggerheart's, keeps no other HP: review 6 read an invite's "HP 7/7"
    // beside "0/6 marked") or with health (teams) shows no generic HP beside it.
    if (label === 'HP' && (slots.length > 0 || (rulesetId !== undefined && capabilitiesOf(rulesetId).hpSlots !== null) || (num(stats['maxHealth']) ?? 0) > 0)) continue;
    const value = num(stats[v]);
    const max = num(stats[m]);
    if (value === null || max === null || max <= 0) continue;
    const states: string[] = [];
    // 003 "Damage": endurance at half or less (0 included) is harmed, not down; health below its maximum is bloodied.
    if (label === 'Endurance') {
      if (value * 2 <= max) states.push('harmed');
    } else if (label === 'Health' && value > 0 && value < max) states.push('bloodied');
    else if (value <= 0) states.push(label === 'Stress' ? 'full' : 'down');
    else if (label === 'HP' && value * 2 <= max && halfHpWord(rulesetId) !== null) states.push(halfHpWord(rulesetId)!);
    out.push({ key: v, label, value, max, states });
  }
  for (const flag of ['staggered', 'harmed', 'bloodied', 'dying', 'dead', 'unconscious']) {
    if (stats[flag] === true && out[0] && !out[0].states.includes(flag)) out[0] = { ...out[0], states: [...out[0].states, flag] };
  }
  // Dead says it all: no "down" beside it (001 "Death & Injury": a dead PC is no longer at 0 HP waiting).
  if (stats['dead'] === true && out[0]) out[0] = { ...out[0], states: out[0].states.filter((x) => x !== 'down' && x !== 'dying') };
  // A kept sheet's dying or unconscious is what the rules call it, not "down" (review 13 #6, #8); the note says what may
  // come next. OSR's dying stays "down and dying" (001: at 0 HP, dying).
  else if (typeof stats['lifeNote'] === 'string' && out[0]) out[0] = { ...out[0], states: out[0].states.filter((x) => x !== 'down'), note: stats['lifeNote'] };
  return out;
}

/**
 * The pools a creature spends on its actions and reactions (003: stamina and focus), as "Stamina 2/3": the phone's
 * own character shows them beside the hit points (review 9: every reaction on the screen spent them unseen).
 */
export function resourcesOf(stats: { readonly [k: string]: Json }): { label: string; value: number; max: number }[] {
  return [
    ['stamina', 'maxStamina', 'Stamina'],
    ['focus', 'maxFocus', 'Focus'],
  ].flatMap(([v, m, label]) => {
    const value = num(stats[v!]);
    const max = num(stats[m!]);
    return value === null || max === null || max <= 0 ? [] : [{ label: label!, value, max }];
  });
}

export function deathSavesOf(stats: { readonly [k: string]: Json }): { successes: number; failures: number } | null {
  const d = stats['deathSaves'];
  const s = num(field(d, 'successes'));
  const f = num(field(d, 'failures'));
  return s === null && f === null ? null : { successes: s ?? 0, failures: f ?? 0 };
}

/** Pools as pips: [pool, used, size] using the spent/granted counts the view carries. */
export function pipsOf(econ: EconomyState | undefined, sizes: { readonly [pool: string]: number }): { pool: string; used: number; size: number }[] {
  if (!econ) return [];
  const pools = new Set([...Object.keys(sizes), ...Object.keys(econ.spent ?? {})]);
  return [...pools].map((pool) => {
    const size = (sizes[pool] ?? 1) + (econ.granted?.[pool] ?? 0);
    return { pool, used: Math.min(size, econ.spent?.[pool] ?? 0), size };
  });
}

/** A condition's name from the view's catalogue ("custom:Paralyzed" reads Paralyzed). */
export function conditionName(enc: EncounterState, defId: string): string {
  const own = enc.catalogue?.conditions.find((c) => c.id === defId)?.name;
  if (own !== undefined) return own;
  return defId.startsWith('custom:') ? defId.slice('custom:'.length) : defId;
}

/** Combatant ids to names, so a refusal never shows an internal id. */
export function namesOf(world: World): { [id: string]: string } {
  const out: { [id: string]: string } = {};
  for (const ch of Object.values(world.characters)) out[ch.id] = ch.name;
  for (const c of Object.values(encounterOf(world)?.combatants ?? {})) out[c.id] = c.name;
  return out;
}

/**
 * The round as the tracker and the TV say it: "Round 3", "Surprise round", or "Conflict" where a spotlight
 * without action tokens never ends a round (ADR 14, ADR 67; "Round 1" all night would mislead). The tokens
 * setting decides, not the turn order's state, since players' views carry no sequencer state.
 */
export function roundWords(enc: Pick<EncounterState, 'round'>, world: Pick<World, 'rulesetId' | 'settings'>): string {
  if (enc.round === 0) return 'Surprise round';
  const tokens = world.settings['daggerheart.actionTokens'];
  return capabilitiesOf(world.rulesetId).spotlightTurns && !(typeof tokens === 'number' && tokens > 0) ? 'Conflict' : `Round ${enc.round}`;
}
