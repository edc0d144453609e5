// What players and spectators may see of the encounter (default-deny, ADR 10 and
// 25), the id status hook (ADR 18) and each event's audience.
import { own } from '../core/own.js';
import { AUDIENCE_ALL, AUDIENCE_GM } from '../core/visibility.js';
import { asJson, audiencesOf, eventViewsOf, fromJson, sameAudience } from '../core/events.js';
import type { Audience, EngineEvent, EventAudience, Json, Viewer, World, WorldPart } from '../core/types.js';
import type { ClockAdvancedEvent, EncounterEvent } from './events.js';
import { foeBasis, foeKeys, foeRevealOf, isFoe, isFoeCharacter, pickKeys } from '../foes/model.js';
import { conditionDef } from './conditions.js';
import { canAct, isDefeated, onDeck } from './selectors.js';
import { shownTestRoll } from './sequencers/edge-save.js';
import { ENCOUNTER_ID, getEncounter, setEncounter } from './state.js';
import type { Combatant, ConditionCatalogue, ConditionDef, ConditionInstance, Duration, EconomyState, EncounterRules, EncounterState } from './types.js';

/** A visibility players may not fully see through (hidden, or known to exist only). */
const secretVisibility = (vis: Json | undefined): boolean => vis === 'hidden' || vis === 'existence';
/** `v` names a combatant of `enc` that players may not fully see. */
const hiddenCombatant = (enc: EncounterState, v: Json | undefined): boolean => typeof v === 'string' && secretVisibility(own(enc.combatants, v)?.visibility);

/** A map of numbers as players may read it: only its numbers (a pool's spent count...), nothing else it may hold. */
function numbers(m: { readonly [k: string]: number }): { [k: string]: number } {
  const out: { [k: string]: number } = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'number') out[k] = v;
  return out;
}

/** A condition's duration, field by field; anchored to a hidden combatant's turn, players learn the kind, not whose turn. */
function shownDuration(d: Duration, keep: (id: string) => boolean): Duration {
  switch (d.kind) {
    case 'rounds': return { kind: 'rounds', rounds: d.rounds };
    case 'turnStart':
    case 'turnEnd': return { kind: d.kind, of: keep(d.of) ? d.of : '' };
    // A save target is a number players roll against; anything else entered there is the GM's (ADR 33).
    case 'saveEnds': return typeof d.save === 'number' && Number.isFinite(d.save) ? { kind: 'saveEnds', save: d.save } : { kind: 'saveEnds' };
    case 'rest': return { kind: 'rest', rest: d.rest };
    case 'encounterEnd': return { kind: 'encounterEnd' };
    case 'indefinite': return { kind: 'indefinite' };
  }
}

/**
 * A combatant's own stats as players read them (ADR 33): a PC's numbers, and a
 * seat's retainer's (no foe by the shared rule, ADR 45), are the party's and pass
 * as entered; a foe's are the GM's, except its defeat, which the table sees (as
 * hp 0, what the turn order greys out by). A ruleset that declares its foe
 * combatants' stat keys (`foeStats`) shows them by the table's reveal, as it
 * shows a foe character's sheet (review 9: a phone's odds need the Defense).
 */
function shownStats(c: Combatant, friend: boolean, keys: ReadonlySet<string> | null | undefined, fallen: boolean): { readonly [key: string]: Json } {
  if (c.kind === 'pc' || friend) return c.stats;
  const fell: { [key: string]: Json } = fallen ? { hp: 0 } : {};
  if (keys === undefined) return fell;
  return { ...(pickKeys(c.stats, keys) as { [key: string]: Json }), ...fell };
}

/** The non-PC combatants that are no foes (a seat's retainer, by its character), as a key: what the projection reads of characters and seats. */
const friendCombatants = (source: World): string =>
  Object.values(getEncounter(source).combatants)
    .filter((c) => c.kind !== 'pc' && c.characterId !== null && !isFoe(source, c.id))
    .map((c) => c.id)
    .sort()
    .join(' ');

/** A condition instance's params as players read them: only the keys its definition declares, of the declared type (ADR 33). */
function shownParams(def: ConditionDef | undefined, params: Json): Json {
  const declared = def?.params;
  if (declared === undefined || params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  const out: { [key: string]: Json } = {};
  for (const [key, type] of Object.entries(declared)) {
    const v = own(params, key);
    if (typeof v === type && (type !== 'number' || Number.isFinite(v))) out[key] = v!;
  }
  return out;
}

/** A projected encounter, the canAct reads it was made with, and the hidden turns players' clock leaves out (null: clock as stored). */
interface ProjectedEncounter {
  readonly reads: readonly unknown[];
  readonly enc: EncounterState;
  readonly hiddenTurnsEnded: number | null;
}

export interface EncounterView {
  project(world: World, viewer: Viewer, source?: World): World;
  idStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined;
  audience: { [type: string]: EventAudience };
  /** Events as players read them (ADR 33). */
  eventView: { [type: string]: (world: World, e: EngineEvent) => EngineEvent };
  /** What eventView reads of the world (ADR 45): the shared foe rule's basis. */
  eventViewBasis(world: World): string;
}

/** The views; `eventTypes` are the events whose audience hides hidden combatants. */
export function encounterView(rules: EncounterRules, eventTypes: readonly string[]): EncounterView {
  const seqr = rules.sequencer;

  /**
   * The encounter as players and spectators may read it, built field by
   * field (ADR 25): a key no line below names (a field a later version adds)
   * stays with the GM. A foe's `stats` and a condition's undeclared `params`
   * are the GM's too (ADR 33); a placement passes only as the sequencer's
   * projector rewrote it.
   */
  /**
   * The foes that have fallen, judged on the GM's world (review 9: phones never
   * marked them): 0 hit points of their own or on their linked character, or
   * the ruleset's own fall (dead, unconscious, every HP slot marked) by its
   * canAct. The table sees a fall (ADR 33); the projection shows it as hp 0.
   */
  const fallenFoes = (source: World): ReadonlySet<string> => {
    const enc = getEncounter(source);
    const out = new Set<string>();
    for (const id of enc.roster) {
      const c = own(enc.combatants, id);
      if (c === undefined || c.kind === 'pc') continue;
      const linked = c.characterId === null ? undefined : own(source.characters, c.characterId)?.stats['hp'];
      let down = isDefeated(c) || (typeof c.stats['hp'] !== 'number' && typeof linked === 'number' && linked <= 0);
      try {
        down ||= rules.canAct !== undefined && !rules.canAct(source, c);
      } catch {
        // A ruleset hook that cannot read this world marks nobody.
      }
      if (down) out.add(id);
    }
    return out;
  };

  const hideFromPlayers = (world: World, viewer: Viewer, source: World): World => {
    if (viewer.role === 'gm' || world.ext[ENCOUNTER_ID] === undefined || world.ext[ENCOUNTER_ID] === null) return world;
    const enc = getEncounter(world);
    const shown = (id: string): boolean => enc.roster.includes(id) && own(enc.combatants, id)?.visibility !== 'hidden';
    const hidden = new Set([...enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'hidden'), ...(enc.hiddenGone ?? []).filter((id) => !shown(id))]);
    const veiled = new Set(enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'existence'));
    const hiddenSerials = enc.hiddenTurns ?? [];
    const friends = new Set(friendCombatants(source).split(' '));
    // A PC or a seat's retainer: the party's numbers, by the engine's one foe rule (ADR 45, ADR 53).
    const friend = (id: string): boolean => own(enc.combatants, id)?.kind === 'pc' || friends.has(id);
    // A foe combatant's stats by the table's reveal, where the ruleset declares them (undefined: none pass).
    const foeStatKeys = rules.foeStats === undefined ? undefined : foeKeys(source, viewer, rules.foeStats);
    const fell = fallenFoes(source);
    // Default-deny for the turn order's own state: only what the sequencer's projector shows.
    const seqView = seqr.project?.(enc, (id) => !hidden.has(id) && Object.hasOwn(enc.combatants, id), friend) ?? { state: null, placements: {} };
    // Nothing hidden: serials and join order as stored.
    const plain = hidden.size === 0 && veiled.size === 0 && hiddenSerials.length === 0;
    const keep = (id: string): boolean => !hidden.has(id);
    // Turn serials as if hidden turns never happened, so gaps do not reveal them.
    const pub = (serial: number): number => (plain ? serial : serial - hiddenSerials.filter((h) => h <= serial).length);
    // Join order as dense ranks among the kept combatants, so gaps do not count hidden joiners.
    const joinRank = new Map(
      enc.roster
        .filter(keep)
        .map((id) => [id, own(enc.combatants, id)?.joined ?? 0] as const)
        .sort((a, b) => a[1] - b[1])
        .map(([id], i) => [id, i] as const),
    );
    const combatants: { [id: string]: Combatant } = {};
    for (const [id, c] of Object.entries(enc.combatants)) {
      if (!keep(id)) continue;
      const veil = veiled.has(id);
      combatants[id] = {
        id: c.id,
        // Known to exist only: a public placeholder, no name, stats or linked character.
        name: veil ? 'Unknown' : c.name,
        kind: c.kind,
        side: c.side,
        characterId: veil ? null : c.characterId,
        stats: veil ? {} : shownStats(c, friends.has(id), foeStatKeys, fell.has(id)),
        visibility: c.visibility,
        incapacitated: c.incapacitated,
        unsurprisable: c.unsurprisable,
        // Only as the sequencer's projector rewrote it; a sequencer without one shows none of it.
        placement: Object.hasOwn(seqView.placements, id) ? seqView.placements[id]! : c.placement === null ? null : {},
        joined: plain ? c.joined : (joinRank.get(id) ?? 0),
        readied: veil || c.readied === null ? null : { action: c.readied.action, trigger: c.readied.trigger, round: c.readied.round },
      };
    }
    const conditions: { [id: string]: ConditionInstance } = {};
    for (const [k, c] of Object.entries(enc.conditions)) {
      if (!keep(c.target) || veiled.has(c.target)) continue;
      conditions[k] = {
        id: c.id,
        defId: c.defId,
        target: c.target,
        source: c.source !== null && !keep(c.source) ? null : c.source,
        stacks: c.stacks,
        duration: shownDuration(c.duration, keep),
        params: shownParams(conditionDef(rules.conditions, c.defId), c.params),
        appliedTurn: pub(c.appliedTurn),
        appliedRound: c.appliedRound,
        freshTurn: pub(c.freshTurn),
        freshStacks: c.freshStacks,
      };
    }
    const economy: { [id: string]: EconomyState } = {};
    for (const [id, e] of Object.entries(enc.economy)) {
      if (!keep(id) || veiled.has(id)) continue;
      economy[id] = {
        spent: numbers(e.spent),
        granted: numbers(e.granted),
        owed: numbers(e.owed),
        turnTags: e.turnTags.filter((t) => typeof t === 'string'),
        roundTags: e.roundTags.filter((t) => typeof t === 'string'),
        extended: e.extended === null ? null : { label: e.extended.label, pool: e.extended.pool, remaining: e.extended.remaining },
      };
    }
    const lastTurn: { [id: string]: number } = {};
    for (const [id, n] of Object.entries(enc.lastTurn)) if (keep(id) && Object.hasOwn(combatants, id) && typeof n === 'number') lastTurn[id] = pub(n);
    const p = enc.pending;
    const view: EncounterState = {
      active: enc.active,
      ...(enc.number === undefined ? {} : { number: enc.number }),
      round: enc.round,
      surpriseActors: enc.surpriseActors?.filter(keep) ?? null,
      combatants,
      roster: enc.roster.filter(keep),
      current: enc.current !== null && keep(enc.current) ? enc.current : null,
      acted: enc.acted.filter(keep),
      pending:
        p === null
          ? null
          : {
              prompt: p.prompt,
              chooser: p.chooser.kind === 'gm' ? { kind: 'gm' } : { kind: 'players', side: p.chooser.side },
              options: p.options.filter(keep),
              default: p.default !== null && keep(p.default) ? p.default : null,
              ...(p.act === undefined ? {} : { act: p.act }),
            },
      turnSerial: pub(enc.turnSerial),
      lastTurn,
      seq: seqView.state,
      economy,
      conditions,
      escalation: { offset: enc.escalation.offset, suppressed: enc.escalation.suppressed.filter(keep) },
      nextJoin: plain ? enc.nextJoin : joinRank.size,
    };
    if (plain) return setEncounter(world, view);
    // The one clock counts every turn; players' clock does not count the hidden ones.
    const counts = { ...world.clock.counts, turn: world.clock.counts.turn - (enc.hiddenTurnsEnded ?? 0) };
    return setEncounter({ ...world, clock: { ...world.clock, counts } }, view);
  };

  /**
   * hideFromPlayers' rule for one id (ADR 18): a combatant it drops (hidden, or
   * gone while hidden), and a condition or economy entry on someone it drops or
   * veils, is hidden; anything else it keeps is shown.
   */
  const idStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
    const enc = getEncounter(world);
    const c = own(enc.combatants, id);
    const cond = own(enc.conditions, id);
    const econ = own(enc.economy, id);
    if (c === undefined && cond === undefined && econ === undefined) return undefined;
    if (viewer.role === 'gm') return 'shown';
    const inRoster = (x: string): boolean => enc.roster.includes(x);
    const keep = (x: string): boolean =>
      inRoster(x) ? own(enc.combatants, x)?.visibility !== 'hidden' : !(enc.hiddenGone ?? []).includes(x);
    const veiled = (x: string): boolean => inRoster(x) && own(enc.combatants, x)?.visibility === 'existence';
    if (c !== undefined && keep(id)) return 'shown';
    if (cond !== undefined && keep(cond.target) && !veiled(cond.target)) return 'shown';
    if (econ !== undefined && keep(id) && !veiled(id)) return 'shown';
    return 'hidden';
  };

  /**
   * Every view carries the kernel's on-deck combatant. Players get it computed
   * on their own projection, as if hidden combatants never existed, so it can
   * never name (or count) one.
   */
  // Built once, so every view shares one object (deltas compare parts by reference).
  const catalogue: ConditionCatalogue = {
    conditions: rules.conditions.map((d) => ({ id: d.id, name: d.name, stacking: d.stacking, ...(d.maxStacks !== undefined ? { maxStacks: d.maxStacks } : {}), ...(d.fleeting === true ? { fleeting: true } : {}) })),
    saveEnds: rules.saveRoll !== undefined,
    // A spotlight keeps no rounds (000): its pickers offer "until removed" first and no round counts (ADR 57).
    ...(rules.sequencer.id === 'spotlight' ? { roundless: true } : {}),
  };
  /**
   * The projected encounter depends only on the stored encounter, the viewer's class and what canAct
   * reads (the projector's own `writtenFrom` declaration in module.ts): it is kept per stored encounter object,
   * so a change elsewhere (a clock advance, a note) costs no re-projection and keeps its identity.
   * No memo when canAct reads undeclared parts.
   */
  const memoReads = rules.canAct !== undefined && rules.canActReads === undefined ? null : (rules.canActReads ?? []);
  const memo = new WeakMap<object, { gm?: ProjectedEncounter; others?: ProjectedEncounter }>();
  const readsOf = (world: World, reads: readonly WorldPart[]): unknown[] =>
    reads.map((r) => (r.startsWith('ext.') ? (Object.hasOwn(world.ext, r.slice(4)) ? world.ext[r.slice(4)] : undefined) : world[r as Exclude<WorldPart, `ext.${string}`>]));
  /**
   * The friends and the fallen as players' memo key reads them, kept per stored encounter with the other parts
   * they read (characters, seats, what canAct reads): a clock advance or a note then costs a comparison, not a
   * walk of the roster calling the ruleset's canAct for every foe (issue 19).
   */
  const playersKeys = new WeakMap<object, { readonly parts: readonly unknown[]; readonly friends: string; readonly fallen: string }>();
  const playersKey = (source: World, canActReads: readonly WorldPart[]): { readonly friends: string; readonly fallen: string } => {
    const stored = Object.hasOwn(source.ext, ENCOUNTER_ID) ? source.ext[ENCOUNTER_ID] : undefined;
    const parts = [source.characters, source.seats, ...readsOf(source, canActReads)];
    const kept = stored !== null && typeof stored === 'object' ? playersKeys.get(stored) : undefined;
    if (kept !== undefined && kept.parts.length === parts.length && kept.parts.every((x, i) => x === parts[i])) return kept;
    const made = { parts, friends: friendCombatants(source), fallen: [...fallenFoes(source)].join(' ') };
    if (stored !== null && typeof stored === 'object') playersKeys.set(stored, made);
    return made;
  };
  const project = (world: World, viewer: Viewer, source: World = world): World => {
    const stored = world.ext[ENCOUNTER_ID];
    if (memoReads === null || stored === undefined || stored === null || typeof stored !== 'object') return projectFresh(world, viewer, source);
    const cls = viewer.role === 'gm' ? 'gm' : 'others';
    // Which retainers are friends is read as a string, so a character's HP changing keeps the memo.
    const seen = viewer.role === 'gm' ? null : playersKey(source, memoReads);
    const reads = [...readsOf(world, memoReads), seen === null ? '' : seen.friends, rules.foeStats === undefined ? '' : foeRevealOf(source), seen === null ? '' : seen.fallen];
    const kept = memo.get(stored)?.[cls];
    let hit = kept !== undefined && kept.reads.length === reads.length && kept.reads.every((x, i) => x === reads[i]) ? kept : undefined;
    if (hit === undefined) {
      const out = projectFresh(world, viewer, source);
      hit = { reads, enc: fromJson<EncounterState>(out.ext[ENCOUNTER_ID] ?? null), hiddenTurnsEnded: out.clock === world.clock ? null : (getEncounter(world).hiddenTurnsEnded ?? 0) };
      const entry = memo.get(stored) ?? {};
      entry[cls] = hit;
      memo.set(stored, entry);
      return out;
    }
    // Players' clock leaves hidden turns out, as the fresh projection did for this encounter.
    const seenWorld = hit.hiddenTurnsEnded === null ? world : { ...world, clock: { ...world.clock, counts: { ...world.clock.counts, turn: world.clock.counts.turn - hit.hiddenTurnsEnded } } };
    return setEncounter(seenWorld, hit.enc);
  };
  /**
   * Who is on deck as a player may know it (review 7: a phone said Bram while the GM's screen said Goblin 1). Players'
   * placements are redacted (a foe's place only, ADR 53), so the order is read from the stored encounter; a
   * combatant hidden from them is passed over as if it had acted, so the next one they can see is named.
   */
  const shownOnDeck = (source: World, seen: World, judged: EncounterRules): string | null => {
    const full = getEncounter(source);
    const shown = getEncounter(seen);
    const acted = full.current !== null && !full.acted.includes(full.current) ? [...full.acted, full.current] : [...full.acted];
    // A veiled creature is judged by what players see of it (killed in secret, it still seems to take its turn).
    const able = (id: string): boolean => (own(shown.combatants, id)?.visibility === 'existence' ? canAct(seen, judged, id) : canAct(source, rules, id));
    for (let i = 0; i <= full.roster.length; i++) {
      const n = rules.sequencer.next({ enc: { ...full, acted, current: null }, canAct: able });
      if (n.kind !== 'actor') return null;
      if (own(shown.combatants, n.id) !== undefined) return n.id;
      acted.push(n.id);
    }
    return null;
  };
  const projectFresh = (world: World, viewer: Viewer, source: World): World => {
    const seen = hideFromPlayers(world, viewer, source);
    if (seen.ext[ENCOUNTER_ID] === undefined || seen.ext[ENCOUNTER_ID] === null) return seen;
    const enc = getEncounter(seen);
    // The ruleset's own canAct reads state players may not see (a veiled foe's sheet, which a later projector removes):
    // for them, a combatant known only to exist is judged by what they can see (its incapacitated flag), never by that hook.
    const judged: EncounterRules =
      viewer.role === 'gm' || rules.canAct === undefined ? rules : { ...rules, canAct: (w, c) => c.visibility === 'existence' || rules.canAct!(w, c) };
    let next: string | null;
    try {
      next = !enc.active ? null : viewer.role === 'gm' ? onDeck(seen, judged) : shownOnDeck(source, seen, judged);
    } catch {
      // A ruleset hook that cannot cope with a redacted world must not take the view down: nobody on deck.
      next = null;
    }
    // The economy's pools and the condition catalogue travel with every view, so a screen never has to know the ruleset to draw them.
    return setEncounter(seen, { ...enc, onDeck: next, economyDef: rules.economy, catalogue });
  };

  // Judged for every encounter and clock event a command applies (twice: before and after it), so no closures or arrays here.
  const hiddenAudience = (world: World, e: EncounterEvent | ClockAdvancedEvent): Audience => {
    const enc = getEncounter(world);
    // Events about a combatant players may not fully see (hidden, or known to exist only) stay with the GM.
    if (
      ('id' in e && hiddenCombatant(enc, e.id)) ||
      ('target' in e && hiddenCombatant(enc, e.target)) ||
      ('combatant' in e && typeof e.combatant === 'string' && hiddenCombatant(enc, e.combatant)) ||
      ('before' in e && hiddenCombatant(enc, e.before)) ||
      ('source' in e && hiddenCombatant(enc, e.source)) ||
      ('of' in e && hiddenCombatant(enc, e.of))
    ) {
      return AUDIENCE_GM;
    }
    // A duration anchored to a hidden combatant's turn ("until the end of the lurker's next turn").
    if ('duration' in e && isRecord(asJson(e.duration)) && 'of' in e.duration && hiddenCombatant(enc, e.duration.of)) return AUDIENCE_GM;
    // Events that list combatants: the start roster, a newcomer, a decision's options.
    if ('combatant' in e && typeof e.combatant === 'object' && e.combatant !== null && secretVisibility(e.combatant.visibility)) return AUDIENCE_GM;
    if ('combatants' in e && Array.isArray(e.combatants)) {
      for (const x of e.combatants) if (x !== null && typeof x === 'object' && secretVisibility(x.visibility)) return AUDIENCE_GM;
    }
    if ('decision' in e && isRecord(asJson(e.decision)) && Array.isArray(e.decision.options)) {
      for (const o of e.decision.options) if (hiddenCombatant(enc, o)) return AUDIENCE_GM;
    }
    return AUDIENCE_ALL;
  };
  const audience = sameAudience<EncounterEvent | ClockAdvancedEvent>([...eventTypes, 'clock.advanced'], hiddenAudience);
  // Hit points on a character players may not fully see (an NPC's sheet starts name-only) stay with the GM.
  Object.assign(
    audience,
    audiencesOf<EncounterEvent>({
      'encounter.hpChanged': (world, e) => {
        // A character outside any fight is named by its own id (ADR 104).
        const played = own(getEncounter(world).combatants, e.id);
        const chId = e.on === 'character' ? (played === undefined ? e.id : played.characterId) : null;
        const ch = typeof chId === 'string' ? world.characters[chId] : undefined;
        return ch !== undefined && ch.visibility !== 'visible' ? ({ kind: 'gm' } as const) : hiddenAudience(world, e);
      },
      // A re-roll that moved a combatant players may not see stays with the GM (the log line still says it happened).
      'encounter.initiativeRerolled': (world, e) => {
        const enc = getEncounter(world);
        return Object.keys(e.placements).some((id) => own(enc.combatants, id)?.visibility !== 'visible') ? ({ kind: 'gm' } as const) : hiddenAudience(world, e);
      },
    }),
  );
  // Events carry the records they add whole: players read them with the state's rules for free-form values (ADR 33).
  const isRecord = (j: Json | undefined): j is { readonly [k: string]: Json } => j !== null && typeof j === 'object' && !Array.isArray(j);
  const shownPlacement = (p: Json | undefined): Json => {
    if (!isRecord(p) || !Array.isArray(p['rolls'])) return p ?? null;
    return { ...p, rolls: p['rolls'].map((r) => (isRecord(r) ? { ...r, detail: shownTestRoll(r['detail']) } : r)) };
  };
  // A foe's initiative score is its own number (an OSR foe's DEX, ADR 33): history shows players its placement without it.
  const foePlacement = (p: Json): Json => {
    if (!isRecord(p) || (p['score'] === undefined && p['tie'] === undefined)) return p;
    const { score: _score, tie: _tie, ...rest } = p;
    return rest;
  };
  // The party's placements pass whole: a PC's, and a seat's retainer's by the one foe rule (ADR 45, ADR 53).
  const friendRecord = (w: World, c: Combatant): boolean => {
    const ch = c.characterId;
    return c.kind === 'pc' || (typeof ch === 'string' && own(w.characters, ch) !== undefined && !isFoeCharacter(w, ch));
  };
  // A record stored before the union (or by a hand-written client) may not be an object: it passes as it is.
  const shownRecord = (w: World, c: Combatant): Combatant => {
    if (!isRecord(asJson(c))) return c;
    const placement = shownPlacement(c.placement);
    return { ...c, stats: c.kind === 'pc' ? (c.stats ?? {}) : isDefeated(c) ? { hp: 0 } : {}, placement: friendRecord(w, c) ? placement : foePlacement(placement) };
  };
  const shownDurationOf = (d: Duration): Duration | undefined => (isRecord(asJson(d)) ? shownDuration(d, () => true) : undefined);
  const eventView = eventViewsOf<EncounterEvent>({
    'encounter.started': (w, e) => ({ ...e, combatants: Array.isArray(e.combatants) ? e.combatants.map((c) => shownRecord(w, c)) : [] }),
    'encounter.combatantAdded': (w, e) => ({ ...e, combatant: shownRecord(w, e.combatant) }),
    'encounter.placed': (w, e) => {
      const placement = shownPlacement(e.placement);
      return { ...e, placement: isFoe(w, e.id) ? foePlacement(placement) : placement };
    },
    // As encounter.placed, one combatant at a time; the audience below keeps a hidden one's out of players' sight.
    'encounter.initiativeRerolled': (w, e) => ({
      ...e,
      placements: Object.fromEntries(Object.entries(e.placements).map(([id, p]) => [id, isFoe(w, id) ? foePlacement(shownPlacement(p)) : shownPlacement(p)])),
    }),
    'encounter.statsSet': (w, e) => (isFoe(w, e.id) ? { ...e, stats: {}, from: {} } : e),
    // A foe's hit points are the GM's; the damage dealt and its fall are not.
    'encounter.hpChanged': (w, e) => {
      if (e.on !== 'combatant' || !isFoe(w, e.id)) return e;
      const { from: _from, to, ...rest } = e;
      return typeof to === 'number' && to <= 0 ? { ...rest, to: 0 } : rest;
    },
    'condition.applied': (_w, e) => {
      const duration = shownDurationOf(e.duration);
      return { ...e, params: shownParams(conditionDef(rules.conditions, String(e.condition)), e.params ?? null), ...(duration === undefined ? {} : { duration }) };
    },
    'condition.stacked': (_w, e) => {
      const duration = shownDurationOf(e.duration);
      return duration === undefined ? e : { ...e, duration };
    },
  });

  return { project, idStatus, audience, eventView, eventViewBasis: (world: World) => foeBasis(world) };
}
