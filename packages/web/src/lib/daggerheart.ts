// What the Daggerheart panels show, read from this viewer's world and history
// through the ruleset's own selectors (the rulesets' browser entry, ADR 7):
// Fear, each PC's Hope and slots, open roll requests, the spotlight, and the
// last duality roll with its Hope and Fear dice. Nothing here rolls a die.
import type { Character, EngineEvent, TransactionView, World } from '@tablekeeper/engine';
import { encounterOf } from './encounter.ts';
import { countdownsOf, isRedacted } from './countdowns.ts';
import { daggerheartSettings, getDaggerheart, hopeOf, pendingHitsOf, requestsOf, thresholdsOf, trackOf, type PendingHit, type RollRequest, type Thresholds, type Track } from '@tablekeeper/rulesets/browser';

export type Outcome = 'critical' | 'successWithHope' | 'successWithFear' | 'failureWithHope' | 'failureWithFear';
export const OUTCOMES: readonly Outcome[] = ['critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear'];
export const OUTCOME_LABELS: Record<Outcome, string> = {
  critical: 'Critical success',
  successWithHope: 'Success with Hope',
  successWithFear: 'Success with Fear',
  failureWithHope: 'Failure with Hope',
  failureWithFear: 'Failure with Fear',
};

export const TRAIT_NAMES = ['agility', 'strength', 'finesse', 'instinct', 'presence', 'knowledge'] as const;
export const DOWNTIME = [
  ['tendWounds', 'Tend to Wounds'],
  ['clearStress', 'Clear Stress'],
  ['repairArmor', 'Repair Armor'],
  ['prepare', 'Prepare'],
  ['workOnProject', 'Work on a Project (long rest)'],
] as const;

/** The GM's Fear as this viewer sees it: null when the table keeps it from players. */
export function fearOf(world: World): { readonly fear: number | null; readonly max: number } {
  const raw = getDaggerheart(world).fear as number | null;
  return { fear: typeof raw === 'number' ? raw : null, max: daggerheartSettings(world).fearMax };
}

export interface PcTracks {
  readonly id: string;
  readonly name: string;
  readonly hope: number;
  readonly hopeMax: number;
  readonly hp: Track;
  readonly stress: Track;
  readonly armor: Track;
  readonly thresholds: Thresholds | null;
}

export function tracksOfCharacter(world: World, c: Character): PcTracks {
  const set = daggerheartSettings(world);
  return {
    id: c.id,
    name: c.name,
    hope: hopeOf(world, c.id),
    hopeMax: set.hopeMax,
    hp: trackOf(c.stats, 'hp', set.hpSlots),
    stress: trackOf(c.stats, 'stress', set.stressSlots),
    armor: trackOf(c.stats, 'armor', set.armorSlots),
    thresholds: thresholdsOf(c.stats),
  };
}

export const pcsOf = (world: World): Character[] => Object.values(world.characters).filter((c) => c.kind === 'pc');

/** What one more helper's d6 does to a roll that has advantage already, said before the Hope is spent. */
export function helpAdds(world: World): string {
  const set = daggerheartSettings(world);
  if (set.advantageDiceStack) return 'it has advantage already: your d6 adds to theirs';
  return set.helpKeepsHighest ? 'it has advantage already: your d6 is thrown too and the highest counts' : 'it has advantage already: your help adds nothing';
}

/** Hits waiting on an Armor choice (ADR 50): on these characters only, or every one this viewer sees. */
export const waitingHits = (world: World, characterIds?: readonly string[]): readonly PendingHit[] => pendingHitsOf(world).filter((h) => characterIds === undefined || characterIds.includes(h.characterId));
/** One of an adversary's moves as the GM's board shows it: its words and the countdown it started (value now), if any. */
export interface MoveShown {
  readonly name: string;
  readonly text: string;
  readonly countdown: { readonly name: string; readonly value: number; readonly start: number } | null;
}

/** An adversary's moves (its stat block's, kept on its sheet by daggerheart.addAdversaries) with their countdowns' values in this view. */
export function adversaryMoves(world: World, c: Character): MoveShown[] {
  const list = c.stats['moves'];
  if (!Array.isArray(list)) return [];
  const cds = countdownsOf(world).countdowns;
  return list.flatMap((m) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m) || typeof m['name'] !== 'string') return [];
    const cd = typeof m['countdownId'] === 'string' ? cds.find((x) => x.id === m['countdownId']) : undefined;
    const countdown = cd !== undefined && !isRedacted(cd) ? { name: cd.name, value: cd.value, start: cd.start } : null;
    return [{ name: m['name'], text: typeof m['text'] === 'string' ? m['text'] : '', countdown }];
  });
}

/** Adversaries the viewer may see the sheet of (the GM sees all). */
export const adversariesOf = (world: World): Character[] => Object.values(world.characters).filter((c) => c.kind === 'npc' && c.stats['adversary'] === true);

/** Open requests, oldest first; for a phone only those of its own characters. */
export function openRequests(world: World, characterIds?: readonly string[]): RollRequest[] {
  return Object.values(requestsOf(world))
    .filter((r) => characterIds === undefined || characterIds.includes(r.characterId))
    .sort((a, b) => Number(a.id.split('-')[1]) - Number(b.id.split('-')[1]));
}

export const helpersOf = (world: World, characterId: string): readonly string[] => getDaggerheart(world).help[characterId] ?? [];

export function requestWords(r: RollRequest): string {
  // The trait stays beside the player's words: "Finesse roll (cut the rope bridge) +1" (review 7).
  const trait = r.trait !== '' ? `${r.trait[0]!.toUpperCase()}${r.trait.slice(1)} roll` : '';
  const what = trait !== '' && r.label !== '' ? `${trait} (${r.label})` : trait || r.label || 'Action roll';
  const mod = r.modifier === 0 ? '' : ` ${r.modifier > 0 ? '+' : '−'}${Math.abs(r.modifier)}`;
  const vs = r.awaiting === true ? ' · the GM sets the difficulty' : r.difficulty === null ? ' · difficulty hidden' : ` vs ${r.difficulty}`;
  const adv = r.advantage > 0 ? ' · advantage' : r.advantage < 0 ? ' · disadvantage' : '';
  return `${what}${mod}${vs}${adv}`;
}

export interface ShownRoll {
  readonly seq: number;
  readonly characterId: string | null;
  readonly label: string;
  readonly hope: number;
  readonly fear: number;
  readonly advantageDice: readonly number[];
  readonly advantageSign: number;
  /** Helpers' d6 on a roll with advantage already: only the highest counts (ADR 50). */
  readonly keptHighest?: boolean;
  readonly modifier: number;
  readonly total: number;
  readonly difficulty: number | null;
  readonly outcome: Outcome;
}

/**
 * The latest duality roll this viewer may see (the full record, or the one
 * without its hidden difficulty), optionally for one character.
 */
export function lastRoll(history: readonly TransactionView[], characterId?: string): ShownRoll | null {
  // A roll the GM has undone is no longer the last roll (redo brings it back).
  const undone = new Set<number>();
  for (const tx of history) {
    if (tx.kind === 'undo' && tx.target !== undefined) undone.add(tx.target);
    if (tx.kind === 'redo' && tx.target !== undefined) undone.delete(tx.target);
  }
  for (let i = history.length - 1; i >= 0; i--) {
    const tx = history[i]!;
    if (tx.kind !== 'command' || undone.has(tx.seq)) continue;
    const events = tx.events.filter((e) => e.type === 'daggerheart.actionRollShown' || e.type === 'daggerheart.actionRolled');
    // Prefer the record without the difficulty when both are present (never show what the player would not get).
    const e: EngineEvent | undefined = events.find((x) => x.type === 'daggerheart.actionRollShown') ?? events[0];
    if (e === undefined) continue;
    if (characterId !== undefined && e['characterId'] !== characterId) continue;
    const r = e['roll'] as { [k: string]: unknown } | undefined;
    if (r === undefined) continue;
    const hidden = e.type === 'daggerheart.actionRollShown' || e['hidden'] === true;
    return {
      seq: tx.seq,
      characterId: typeof e['characterId'] === 'string' ? e['characterId'] : null,
      label: typeof e['label'] === 'string' ? e['label'] : '',
      hope: Number(r['hope']),
      fear: Number(r['fear']),
      advantageDice: Array.isArray(r['advantageDice']) ? (r['advantageDice'] as number[]) : [],
      advantageSign: Number(r['advantageSign'] ?? 0),
      keptHighest: r['keptHighest'] === true,
      modifier: Number(r['modifier'] ?? 0),
      total: Number(r['total']),
      difficulty: hidden || typeof r['difficulty'] !== 'number' ? null : r['difficulty'],
      outcome: r['outcome'] as Outcome,
    };
  }
  return null;
}

/**
 * What the total adds up, every term named: "7 + 8 + 4 (advantage) + 2 (modifier)", so "= 17" is the sum
 * the card shows (review 10: "HOPE 7 FEAR 8 = 17" hid a +2).
 */
export function dualitySum(roll: ShownRoll): string {
  const terms = [String(roll.hope), `+ ${roll.fear}`];
  const dice = roll.advantageDice;
  if (dice.length > 0) {
    const sign = roll.advantageSign < 0 ? '−' : '+';
    const kind = roll.advantageSign < 0 ? 'disadvantage' : 'advantage';
    const top = Math.max(...dice);
    terms.push(roll.keptHighest === true && dice.length > 1 ? `${sign} ${top} (${kind}: the highest of ${dice.join(', ')})` : `${sign} ${dice.reduce((a, b) => a + b, 0)} (${kind}${dice.length > 1 ? ` ${dice.join(' + ')}` : ''})`);
  }
  if (roll.modifier !== 0) terms.push(`${roll.modifier < 0 ? '−' : '+'} ${Math.abs(roll.modifier)} (modifier)`);
  return terms.join(' ');
}

export const pct = (p: number): string => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/** The odds answer of `daggerheart.rollOdds`, as lines for the phone. */
export interface RollOdds {
  readonly hidden: boolean;
  /** The player asked; the GM has not set the difficulty yet. */
  readonly awaiting?: boolean;
  readonly outcomes?: Record<Outcome, number>;
  readonly success?: number;
  readonly critical?: number;
  readonly withHope?: number;
  readonly withFear?: number;
  readonly countdowns?: readonly { readonly id: string; readonly name: string; readonly ticks: Record<Outcome, number> }[];
}

export function oddsLines(o: RollOdds): string[] {
  if (o.hidden || o.outcomes === undefined) {
    const success = o.awaiting === true ? 'Success: once the GM sets the difficulty' : 'Success: the GM keeps the difficulty secret';
    return [`With Hope ${pct(o.withHope ?? 0)}`, `With Fear ${pct(o.withFear ?? 0)}`, `Critical ${pct(o.critical ?? 0)}`, success];
  }
  return [`Success ${pct(o.success ?? 0)}`, ...OUTCOMES.map((k) => `${OUTCOME_LABELS[k]} ${pct(o.outcomes![k])}`)];
}

/** An adversary with every HP slot marked is out of the fight (000 marks HP until none is left). */
export function isDefeatedAdversary(world: World, c: Character): boolean {
  const hp = trackOf(c.stats, 'hp', daggerheartSettings(world).hpSlots);
  return hp.slots > 0 && hp.marked >= hp.slots;
}

/**
 * Whether players cannot see this adversary: hidden at the table, or as its conflict's combatant (review 12 #12:
 * the GM's Adversaries panel showed a hidden one like the others). 'existence' (known to exist) is not hidden.
 */
export function isHiddenAdversary(world: World, c: Character): boolean {
  if (c.visibility === 'hidden') return true;
  const enc = encounterOf(world);
  return enc?.active === true && Object.values(enc.combatants).some((x) => x.characterId === c.id && x.visibility === 'hidden');
}

/**
 * Who the next conflict starts with: the PCs and the standing adversaries who
 * did not fight in the last conflict (the ones the GM lined up since). The last
 * conflict's survivors are only offered, unticked (`carried`), so none comes back
 * unless the GM ticks it (review 10); the defeated are left out and named.
 */
export function conflictLineUp(world: World): { readonly everyone: Character[]; readonly carried: readonly string[]; readonly leftOut: string[] } {
  const foes = adversariesOf(world);
  const down = foes.filter((c) => isDefeatedAdversary(world, c));
  const enc = encounterOf(world);
  const fought = new Set(enc === null || enc.active ? [] : enc.roster.map((id) => enc.combatants[id]?.characterId));
  const carried = foes.filter((c) => !down.includes(c) && fought.has(c.id)).map((c) => c.id);
  return { everyone: [...pcsOf(world), ...foes.filter((c) => !down.includes(c))], carried, leftOut: down.map((c) => c.name) };
}

/** An adversary a PC's action roll can be made against, with the Difficulty its stat block gives. */
export interface RollFoe {
  readonly id: string;
  readonly name: string;
  readonly difficulty: number;
  /** Players see it by name, so the request may name it. */
  readonly named: boolean;
}

/**
 * The standing adversaries of the running conflict that have a Difficulty: a
 * PC's attack on one is an action roll against it (the published game; 000
 * names Difficulty on stat blocks), so the GM picks the foe, not the number.
 */
export function rollFoes(world: World): RollFoe[] {
  const enc = encounterOf(world);
  if (enc === null || !enc.active) return [];
  return enc.roster.flatMap((id) => {
    const c = enc.combatants[id];
    const ch = c?.characterId == null ? undefined : world.characters[c.characterId];
    const d = ch?.stats['difficulty'];
    if (c === undefined || ch === undefined || ch.stats['adversary'] !== true || typeof d !== 'number' || !Number.isInteger(d) || isDefeatedAdversary(world, ch)) return [];
    return [{ id: c.id, name: c.name, difficulty: d, named: c.visibility === 'visible' }];
  });
}

/** The request's words for a roll against `foe`: named only when players see it by name (a hidden foe's name never reaches a phone). */
export const againstWords = (foe: RollFoe): string => (foe.named ? `against ${foe.name}` : '');
