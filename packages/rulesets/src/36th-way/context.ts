// Shared pieces of the ruleset's commands: the kernel bound to 002's rules,
// who may command a sheet, audiences, and the numbers a roll needs
// (net Advantage from stacked conditions, escalation, save targets).
import type { Audience, Json, RuleError, Viewer, World } from '@tablekeeper/engine';
import { bandsEncounter, controlsCreature, encounterKit, getEncounter, type ConditionInstance, type EncounterKit, type EncounterRules, own } from '@tablekeeper/engine';
import { TSW_CONDITIONS } from './conditions.js';
import { errR, okR, type R } from './result.js';
import { numSetting, setting } from './settings.js';
import { getTsw, type Sheet } from './state.js';
import type { TswEvent } from './events.js';

export const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

/** Does `actor` control the sheet `id` (GM always; a player for their own character)? A sheet's link, else its combatant's character (the engine's one check, ADR 58). */
export function controls(world: World, actor: Viewer, id: string): boolean {
  return controlsCreature(world, actor, id, (k) => own(getTsw(world).sheets, k)?.characterId);
}

/** Why a sheet cannot take actions now (dead, dying, knocked out, out of the fight), or null. */
export function cannotAct(s: Sheet, path: string): R<never> | null {
  if (s.dead) return errR('CANNOT_ACT', `${s.name} is dead`, path);
  if (s.dying !== null) return errR('CANNOT_ACT', `${s.name} is dying and can only roll death saves`, path);
  if (s.unconscious) return errR('CANNOT_ACT', `${s.name} is unconscious`, path);
  if (s.outOfFight) return errR('CANNOT_ACT', `${s.name} is out of the fight (Fight in Spirit instead)`, path);
  return null;
}

export function needSheet(world: World, id: Json | undefined, path: string): R<Sheet> {
  if (typeof id !== 'string') return errR('INVALID_VALUE', `${path} must be a sheet id`, path);
  const s = own(getTsw(world).sheets, id);
  return s === undefined ? errR('NOT_FOUND', `no sheet "${id}" (add it with 36th-way.sheet.set)`, path) : okR(s);
}

/**
 * Ids whose events and sheets stay with the GM: hidden or veiled combatants,
 * and enemy sheets that are not openly in the current fight (stat blocks are
 * the GM's until the enemy shows up).
 */
/**
 * Default-deny (ADR 18): may players see this sheet? Judged on the
 * unprojected world. Not when its combatant is hidden, veiled, or left while
 * hidden; not when its character is anything but visible; not when nothing
 * vouches for it; an enemy's only while it is openly in a running fight.
 */
export function sheetShown(source: World, key: string, sheet: Sheet): boolean {
  const enc = getEncounter(source);
  const gone = enc.hiddenGone ?? [];
  const openly = (x: string): boolean => {
    const c = own(enc.combatants, x);
    if (c === undefined) return false;
    const kept = enc.roster.includes(x) ? c.visibility !== 'hidden' : !gone.includes(x);
    return kept && c.visibility === 'visible';
  };
  if (own(enc.combatants, key) !== undefined ? !openly(key) : gone.includes(key)) return false;
  const chId = sheet.characterId ?? (own(source.characters, key) === undefined ? null : key);
  if (chId !== null && own(source.characters, chId)?.visibility !== 'visible') return false;
  // Vouched for by nothing (no character, not in the fight; a removed hidden character's, say): the GM's, as in teams.
  if (chId === null && own(enc.combatants, key) === undefined) return false;
  return sheet.kind !== 'npc' || (enc.active && openly(sheet.id));
}

export function secretIds(world: World): Set<string> {
  const enc = getEncounter(world);
  const out = new Set(Object.values(enc.combatants).filter((c) => c.visibility !== 'visible').map((c) => c.id));
  // A sheet players may not see (a hidden character's, an enemy's outside the fight) makes its events the GM's.
  for (const [k, s] of Object.entries(getTsw(world).sheets)) if (!sheetShown(world, k, s)) out.add(k);
  return out;
}

export function audienceOfIds(world: World, ids: readonly unknown[]): Audience {
  const secret = secretIds(world);
  return ids.some((x) => typeof x === 'string' && secret.has(x)) ? { kind: 'gm' } : { kind: 'all' };
}

export function eventAudience(world: World, e: TswEvent): Audience {
  // Every field of the event union (events.ts) that names a creature; events arrive upcast, so only today's names.
  const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
  return audienceOfIds(world, [
    'characterId' in e ? e.characterId : undefined,
    'attackerId' in e ? e.attackerId : undefined,
    'targetId' in e ? e.targetId : undefined,
    'helperId' in e ? e.helperId : undefined,
    'fromId' in e ? e.fromId : undefined,
    'toId' in e ? e.toId : undefined,
    'moverId' in e ? e.moverId : undefined,
    'interceptorId' in e ? e.interceptorId : undefined,
    'sourceId' in e ? e.sourceId : undefined,
    'allyId' in e ? e.allyId : undefined,
    ...list('against' in e ? e.against : undefined),
    ...list('targetIds' in e ? e.targetIds : undefined),
    ...list('from' in e ? e.from : undefined),
    ...list('leaving' in e ? e.leaving : undefined),
  ]);
}

// ---------------------------------------------------------------- the kernel bound to 002

/** Rules hooks are filled in by module.ts (they need the ruleset's event builders). */
export type Hooks = Pick<EncounterRules, 'canAct' | 'canActReads' | 'onOngoing' | 'saveRoll' | 'onTurnStart' | 'onTurnEnd'>;

export function makeRules(hooks: Hooks): EncounterRules {
  // 002 gives a round no length; its family's six seconds move the clock each round (ADR 44).
  return { ...bandsEncounter(), conditions: TSW_CONDITIONS, secondsPerRound: 6, ...hooks };
}

export function inEncounter(world: World, id: string): boolean {
  const enc = getEncounter(world);
  return enc.active && own(enc.combatants, id) !== undefined;
}

/**
 * Why `s` may not roll a death save now, or null (002 "Dying and Death": a dying PC rolls one on each of its
 * turns). Shared by 36th-way.deathSave and the actions list, so the button and the command agree.
 */
export function deathSaveRefusal(world: World, s: Sheet): string | null {
  if (s.dead) return `${s.name} is dead`;
  if (s.dying === null) return `${s.name} is not dying`;
  const enc = getEncounter(world);
  if (!inEncounter(world, s.id)) return `${s.name} rolls death saves on their turns in a fight`;
  if (enc.current !== s.id) return `only on ${s.name}'s own turn`;
  if (s.dying.savedOn === enc.turnSerial) return `${s.name} has rolled this turn's death save`;
  // Dropped during this very turn: the first save comes when their next turn starts.
  if (s.dying.dueOn !== enc.turnSerial) return `${s.name} rolls their first death save when their next turn starts`;
  return null;
}

function has(world: World, id: string, cond: string): boolean {
  return Object.values(getEncounter(world).conditions).some((c) => c.target === id && c.defId === cond);
}

export function hasCondition(world: World, id: string, cond: string): boolean {
  return has(world, id, cond);
}

export function instancesOn(world: World, id: string, cond: string): ConditionInstance[] {
  return Object.values(getEncounter(world).conditions).filter((c) => c.target === id && c.defId === cond);
}

/**
 * Net Advantage of `attacker` against `target`: stacked conditions (different
 * names add up), Helpless counting as Stunned, and Grabbed giving the grabber
 * 1 Advantage against the grabbed.
 */
export function attackAdvantage(kit: EncounterKit, world: World, attacker: string, target: string): number {
  let n = kit.netAdvantage(world, attacker, 'attack', target);
  // Helpless means Stunned: count Stunned's effects once when only Helpless is on.
  if (has(world, attacker, 'helpless') && !has(world, attacker, 'stunned')) n -= 1;
  if (has(world, target, 'helpless') && !has(world, target, 'stunned')) n += 1;
  if (instancesOn(world, target, 'grabbed').some((g) => g.source === attacker)) n += 1;
  return n;
}

export function saveAdvantage(kit: EncounterKit, world: World, id: string): number {
  return kit.netAdvantage(world, id, 'save');
}

/** The escalation die as `id` counts it (0 outside fights, for sheets that do not use it, and when Shaken). */
export function escalationOf(kit: EncounterKit, world: World, s: Sheet): number {
  const uses = s.usesEscalation ?? (s.kind === 'pc' || setting<boolean>(world, '36th-way.npcEscalation'));
  if (!uses || !inEncounter(world, s.id)) return 0;
  return kit.escalation(world, s.id);
}

/** The save target of a save-ends instance: its own `save` number, or the table's default (11+). */
export function saveTargetOf(world: World, inst: ConditionInstance): number {
  const d = inst.duration;
  if (d.kind === 'saveEnds' && typeof d.save === 'number' && Number.isInteger(d.save) && d.save >= 3 && d.save <= 18) return d.save;
  if (d.kind === 'saveEnds') return numSetting(world, '36th-way.saveEndsTarget');
  return numSetting(world, '36th-way.oneRoundSaveTarget');
}

export type Kit = EncounterKit;
export { encounterKit };
