// The ruleset's own state in world.ext['36th-way']: character / enemy sheets
// (HP, recoveries, defenses, resistances, abilities and their use), who is
// engaged with whom, pending provocations and campaign losses.
import { asJson, fromJson } from '@tablekeeper/engine/events';
import type { Json, World } from '@tablekeeper/engine';
import { own } from '@tablekeeper/engine';
import { parseAbility, type AbilityEntry, type AbilityUse, MAX_ABILITIES } from './abilities.js';
import { isDamageType, type Resists } from './damage.js';
import { errR, okR, type R } from './result.js';
import { numSetting } from './settings.js';

export const TSW_ID = '36th-way';

export type Stance = 'melee' | 'ranged';
export type Range = 'engaged' | 'nearby' | 'far';

export interface Dying {
  readonly stabilized: boolean;
  /** Disadvantage on the first death save (dropped by a crit or to -half max HP). */
  readonly firstSaveDisadvantage: number;
  readonly savesRolled: number;
  /** Last Gasp saves: the HP to return to on a success. */
  readonly lastGasp: { readonly hp: number; readonly effect: string } | null;
  /** The encounter turn (turn serial) that started with this PC dying, so owes a death save; absent: none yet. */
  readonly dueOn?: number | null;
  /** The encounter turn (turn serial) whose death save is rolled; absent or null: none yet this turn. */
  readonly savedOn?: number | null;
}

export interface Sheet {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  /** world.characters id whose player may act for this sheet. */
  readonly characterId: string | null;
  readonly level: number;
  readonly tier: number;
  readonly volition: number;
  readonly ac: number;
  readonly pd: number;
  readonly md: number;
  readonly maxHp: number;
  readonly hp: number;
  readonly recoveries: number;
  readonly maxRecoveries: number;
  readonly recoveryDice: { readonly count: number; readonly sides: number };
  readonly recoveryBonus: number;
  /** -1 Volition and defenses per heal taken with no recoveries left, until a full rest. */
  readonly exhaustion: number;
  /** Power and secondary resources (Momentum, Command...). */
  readonly resources: { readonly [name: string]: number };
  readonly maxResources: { readonly [name: string]: number };
  readonly resist: Resists;
  readonly weak: readonly string[];
  readonly stance: Stance;
  /** The damage die of each stance (X in "X x Level + Volition"). */
  readonly stanceDice: { readonly melee: number; readonly ranged: number };
  /** How far the ranged stance reaches. */
  readonly rangedReach: 'nearby' | 'far';
  /** Miss damage of basic attacks: none, or equal to Level (by class). */
  readonly basicMiss: 'none' | 'level';
  /** Adds the escalation die to attacks; null = PCs yes, enemies per the 36th-way.npcEscalation setting. */
  readonly usesEscalation: boolean | null;
  readonly abilities: { readonly [id: string]: AbilityEntry };
  readonly uses: { readonly [id: string]: AbilityUse };
  readonly dying: Dying | null;
  /** Failed death saves this encounter (four kill, unless stabilized). */
  readonly deathFailures: number;
  readonly dead: boolean;
  /** Knocked out (unconscious variant, or an enemy spared at 0 HP). */
  readonly unconscious: boolean;
  /** Permanently out of the fight (petrified, separated): may Fight in Spirit. */
  readonly outOfFight: boolean;
  /** Enemies this character hit this round (Grabbed: no disengage penalty against them). */
  readonly hitThisRound: { readonly round: number; readonly targets: readonly string[] };
}

export interface Provocation {
  readonly id: string;
  /** Who provoked. */
  readonly by: string;
  /** Engaged enemies entitled to one opportunity attack each. */
  readonly against: readonly string[];
  readonly reason: string;
  readonly round: number;
}

export interface LastEngage {
  readonly mover: string;
  readonly target: string;
  readonly intercept: boolean;
  readonly serial: number;
}

export interface TswState {
  readonly sheets: { readonly [id: string]: Sheet };
  /** Engaged / next-to pairs, each sorted "a|b". */
  readonly engaged: readonly string[];
  /** Pairs that are Far from each other ("a|b"); everyone else not engaged is Nearby. */
  readonly far: readonly string[];
  readonly provocations: readonly Provocation[];
  readonly lastEngage: LastEngage | null;
  readonly campaignLosses: readonly { readonly reason: string; readonly day: number }[];
  /** Adventuring days begun (a full rest starts a new one). */
  readonly day: number;
  readonly nextProvocation: number;
}

export const EMPTY_TSW: TswState = { sheets: {}, engaged: [], far: [], provocations: [], lastEngage: null, campaignLosses: [], day: 1, nextProvocation: 1 };

export function getTsw(world: World): TswState {
  const raw = world.ext[TSW_ID];
  return raw === undefined || raw === null ? EMPTY_TSW : fromJson<TswState>(raw);
}

export function setTsw(world: World, s: TswState): World {
  return { ...world, ext: { ...world.ext, [TSW_ID]: asJson(s) } };
}

export function updateSheet(world: World, id: string, fn: (s: Sheet) => Sheet): World {
  const st = getTsw(world);
  const s = own(st.sheets, id);
  return s === undefined ? world : setTsw(world, { ...st, sheets: { ...st.sheets, [id]: fn(s) } });
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

// ---------------------------------------------------------------- sheet input

const MAX_STAT = 1000;
const MAX_HP = 100_000;

function int(j: Json | undefined, dflt: number, path: string, lo: number, hi: number): R<number> {
  const v = j ?? dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) return errR('INVALID_VALUE', `${path} must be a whole number from ${lo} to ${hi}`, path);
  return okR(v);
}

function numMap(j: Json | undefined, path: string): R<Record<string, number>> {
  if (j === undefined || j === null) return okR({});
  if (typeof j !== 'object' || Array.isArray(j) || Object.keys(j).length > 10) return errR('INVALID_VALUE', `${path} must be an object of at most 10 numbers`, path);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(j)) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_STAT) return errR('INVALID_VALUE', `${path}.${k} must be a whole number from 0 to ${MAX_STAT}`, `${path}.${k}`);
    out[k] = v;
  }
  return okR(out);
}

/** Validate a sheet from a command (GM input). Missing numbers take the text's usual values. */
export function parseSheet(j: Json | undefined, world: World | null, path = 'sheet'): R<Sheet> {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return errR('INVALID_VALUE', `${path} must be an object`, path);
  const id = j['id'];
  if (typeof id !== 'string' || id.length === 0 || id.length > 80) return errR('INVALID_VALUE', `${path}.id must be a string of 1-80 characters`, `${path}.id`);
  const name = j['name'] ?? id;
  if (typeof name !== 'string' || name.length > 80) return errR('INVALID_VALUE', `${path}.name must be a string of at most 80 characters`, `${path}.name`);
  const kind = j['kind'] ?? 'pc';
  if (kind !== 'pc' && kind !== 'npc') return errR('INVALID_VALUE', `${path}.kind must be "pc" or "npc"`, `${path}.kind`);
  const characterId = j['characterId'] ?? null;
  if (characterId !== null && typeof characterId !== 'string') return errR('INVALID_VALUE', `${path}.characterId must be a string`, `${path}.characterId`);
  const nums: Record<string, number> = {};
  const spec: [string, number, number, number][] = [
    ['level', 1, 0, 30],
    ['tier', 1, 1, 5],
    ['volition', 0, -MAX_STAT, MAX_STAT],
    ['ac', 10, 0, MAX_STAT],
    ['pd', 10, 0, MAX_STAT],
    ['md', 10, 0, MAX_STAT],
    ['maxHp', 10, 1, MAX_HP],
    ['recoveryBonus', 0, -MAX_STAT, MAX_STAT],
  ];
  for (const [k, d, lo, hi] of spec) {
    const v = int(j[k], d, `${path}.${k}`, lo, hi);
    if (!v.ok) return v;
    nums[k] = v.value;
  }
  const maxHp = nums['maxHp']!;
  const hp = int(j['hp'], maxHp, `${path}.hp`, -MAX_HP, maxHp);
  if (!hp.ok) return hp;
  const maxRec = int(j['maxRecoveries'], kind === 'pc' ? numSetting(world, '36th-way.maxRecoveries') : 0, `${path}.maxRecoveries`, 0, 99);
  if (!maxRec.ok) return maxRec;
  const rec = int(j['recoveries'], maxRec.value, `${path}.recoveries`, 0, maxRec.value);
  if (!rec.ok) return rec;
  const rd = j['recoveryDice'] ?? { count: nums['level']!, sides: 8 };
  if (rd === null || typeof rd !== 'object' || Array.isArray(rd)) return errR('INVALID_VALUE', `${path}.recoveryDice must be { count, sides }`, `${path}.recoveryDice`);
  const rdc = int(rd['count'], 1, `${path}.recoveryDice.count`, 0, 100);
  if (!rdc.ok) return rdc;
  const rds = int(rd['sides'], 8, `${path}.recoveryDice.sides`, 1, 100);
  if (!rds.ok) return rds;
  const resources = numMap(j['resources'], `${path}.resources`);
  if (!resources.ok) return resources;
  const maxResources = j['maxResources'] === undefined ? okR({ ...resources.value }) : numMap(j['maxResources'], `${path}.maxResources`);
  if (!maxResources.ok) return maxResources;
  const resist = numMap(j['resist'], `${path}.resist`);
  if (!resist.ok) return resist;
  for (const [t, x] of Object.entries(resist.value)) {
    if (!isDamageType(t)) return errR('INVALID_VALUE', `${path}.resist: "${t}" is not a damage type`, `${path}.resist.${t}`);
    if (x < 3 || x > 19) return errR('INVALID_VALUE', `${path}.resist.${t} must be in [3, 19] (Resist X+)`, `${path}.resist.${t}`);
  }
  const weak = j['weak'] ?? [];
  if (!Array.isArray(weak) || !weak.every(isDamageType)) return errR('INVALID_VALUE', `${path}.weak must be a list of damage types`, `${path}.weak`);
  const stance = j['stance'] ?? 'melee';
  if (stance !== 'melee' && stance !== 'ranged') return errR('INVALID_VALUE', `${path}.stance must be "melee" or "ranged"`, `${path}.stance`);
  const sd = j['stanceDice'] ?? {};
  if (sd === null || typeof sd !== 'object' || Array.isArray(sd)) return errR('INVALID_VALUE', `${path}.stanceDice must be { melee, ranged }`, `${path}.stanceDice`);
  const sdm = int(sd['melee'], 8, `${path}.stanceDice.melee`, 1, 100);
  if (!sdm.ok) return sdm;
  const sdr = int(sd['ranged'], 6, `${path}.stanceDice.ranged`, 1, 100);
  if (!sdr.ok) return sdr;
  const reach = j['rangedReach'] ?? 'far';
  if (reach !== 'nearby' && reach !== 'far') return errR('INVALID_VALUE', `${path}.rangedReach must be "nearby" or "far"`, `${path}.rangedReach`);
  const basicMiss = j['basicMiss'] ?? 'none';
  if (basicMiss !== 'none' && basicMiss !== 'level') return errR('INVALID_VALUE', `${path}.basicMiss must be "none" or "level"`, `${path}.basicMiss`);
  const usesEsc = j['usesEscalation'] ?? null;
  if (usesEsc !== null && typeof usesEsc !== 'boolean') return errR('INVALID_VALUE', `${path}.usesEscalation must be true, false or null`, `${path}.usesEscalation`);
  const abil = j['abilities'] ?? [];
  if (!Array.isArray(abil) || abil.length > MAX_ABILITIES) return errR('INVALID_VALUE', `${path}.abilities must be a list of at most ${MAX_ABILITIES}`, `${path}.abilities`);
  const abilities: Record<string, AbilityEntry> = {};
  for (let i = 0; i < abil.length; i++) {
    const a = parseAbility(abil[i], `${path}.abilities[${i}]`);
    if (!a.ok) return a;
    if (abilities[a.value.id] !== undefined) return errR('INVALID_VALUE', `ability "${a.value.name}" is listed twice: give each ability its own name`, `${path}.abilities[${i}].name`);
    abilities[a.value.id] = a.value;
  }
  return okR({
    id,
    name,
    kind,
    characterId,
    level: nums['level']!,
    tier: nums['tier']!,
    volition: nums['volition']!,
    ac: nums['ac']!,
    pd: nums['pd']!,
    md: nums['md']!,
    maxHp,
    hp: hp.value,
    recoveries: rec.value,
    maxRecoveries: maxRec.value,
    recoveryDice: { count: rdc.value, sides: rds.value },
    recoveryBonus: nums['recoveryBonus']!,
    exhaustion: 0,
    resources: resources.value,
    maxResources: maxResources.value,
    resist: resist.value,
    weak: weak as string[],
    stance,
    stanceDice: { melee: sdm.value, ranged: sdr.value },
    rangedReach: reach,
    basicMiss,
    usesEscalation: usesEsc,
    abilities,
    uses: {},
    dying: null,
    deathFailures: 0,
    dead: false,
    unconscious: false,
    outOfFight: false,
    hitThisRound: { round: -1, targets: [] },
  });
}

/** Defense after exhaustion penalties (-1 per heal taken with no recoveries left). */
export function defenseOf(s: Sheet, d: 'ac' | 'pd' | 'md'): number {
  return s[d] - s.exhaustion;
}

export function volitionOf(s: Sheet): number {
  return s.volition - s.exhaustion;
}
