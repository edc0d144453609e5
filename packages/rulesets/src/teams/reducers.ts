// Reducers for the team game's events: total, pure, never rolling. Each one
// also writes the log line, in our words, for the right audience.
import type { EngineEvent, Evolve, Json, Reducer, World } from '@tablekeeper/engine';
import { appendLog, appendOrComplete, claimId, foeNumbersView, openSentence, type LineCompletion, type LogEntry, foeRevealOf, getEncounter, isFoeCharacter, own, reducersOf, showsFoeNumbers } from '@tablekeeper/engine';
import { isBloodied, isHarmed } from './damage.js';
import type { Sheet } from './sheet.js';
import { audienceOf, getTeams, nameOf, type PendingAttack, updateSheet, updateTeams, without } from './state.js';

/** A test's roll as events carry it (roll.ts's rollJson): the reducers read its total and luck die. */
type RollRecord = {
  readonly total: number;
  readonly luck: number;
  /** The counted faces of the attribute and skill dice, the fixed bonus, every roll of the dice (advantage), the luck die's face. */
  readonly attribute?: number;
  readonly skill?: number | null;
  readonly bonus?: number;
  readonly sets?: readonly { readonly sum: number }[];
  readonly luckDie?: number;
};
type Tested = { readonly roll: RollRecord; readonly difficulty: number; readonly success: boolean };
type Id = { readonly id: string };

/** The team game's events (STYLE 2): each reducer below reads its own member. */
export type TeamsEvent =
  | ({ readonly type: 'teams.sheetSet'; readonly sheet: Sheet } & Id)
  | ({ readonly type: 'teams.sheetRemoved' } & Id)
  | ({
      readonly type: 'teams.attacked';
      readonly attacker: string;
      readonly target: string;
      /** Who was aimed at: differs from target when a shot went astray. */
      readonly intended: string;
      readonly round: number;
      /** Which fight of the table (the encounter's number; absent in tables stored before it was kept). */
      readonly encounter?: number;
      readonly roll: RollRecord;
      /** The attribute the test used (003 "Attacks": one of the weapon's). */
      readonly attribute?: string;
      readonly result: number;
      readonly penalty: number;
      readonly evasion: number;
      readonly hit: boolean;
      readonly critical: boolean;
    } & Id)
  | { readonly type: 'teams.hitPending'; readonly attack: PendingAttack }
  | { readonly type: 'teams.intercepted'; readonly attack: string; readonly by: string; readonly from: string; readonly stillHits: boolean; readonly result: number; readonly evasion: number }
  | {
      readonly type: 'teams.hitResolved';
      readonly attack: string;
      readonly attacker: string;
      readonly target: string;
      readonly avoided?: boolean;
      readonly reaction?: string;
      readonly item?: string | null;
      readonly toItem?: number;
      readonly parryBonus?: number;
      readonly damage?: number;
      readonly raw?: number;
      /** The target's deflection shifted by the size difference: +1 against a smaller attacker, -1 a larger (003 "Size"). */
      readonly sizeShift?: number;
    }
  | ({ readonly type: 'teams.dodgeRolled' } & Id & Tested)
  | ({ readonly type: 'teams.resourceSpent'; readonly resource: 'stamina' | 'focus'; readonly n: number; readonly from: number; readonly to: number; readonly for: string } & Id)
  | ({ readonly type: 'teams.itemDamaged'; readonly item: string; readonly from: number; readonly to: number } & Id)
  | ({ readonly type: 'teams.damaged'; readonly amount: number; readonly damageType?: string | null; readonly raw?: number; readonly nonlethal?: boolean; readonly endurance: { readonly to: number }; readonly health: { readonly to: number } } & Id)
  | ({ readonly type: 'teams.consciousnessAtRisk'; readonly difficulty: number } & Id)
  | ({ readonly type: 'teams.fortified' } & Id & Tested)
  | ({ readonly type: 'teams.fellUnconscious'; readonly reason: string } & Id)
  | ({ readonly type: 'teams.deathRisked'; readonly survived: boolean; readonly total: number; readonly difficulty: number; readonly newDifficulty: number } & Id)
  | { readonly type: 'teams.killed'; readonly attacker: string; readonly target: string; readonly roll: RollRecord; readonly difficulty: number }
  | { readonly type: 'teams.killingStrikeFailed'; readonly attacker: string; readonly target: string; readonly roll: RollRecord; readonly difficulty: number }
  | ({ readonly type: 'teams.revived'; readonly by: string; readonly target: string } & Tested)
  | ({ readonly type: 'teams.tested'; readonly label: string } & Id & Tested)
  | ({ readonly type: 'teams.acted'; readonly action: string; readonly extended: boolean; readonly remaining?: number; readonly target?: string } & Id)
  | { readonly type: 'teams.commanded'; readonly by: string; readonly ally: string }
  | { readonly type: 'teams.commandUsed'; readonly ally: string; readonly by: string }
  | ({ readonly type: 'teams.brandished'; readonly items: readonly string[] } & Id)
  | ({ readonly type: 'teams.dropped'; readonly item: string } & Id)
  | ({ readonly type: 'teams.restored'; readonly field: 'endurance' | 'health' | 'stamina' | 'focus' | 'deathDifficulty'; readonly from: number; readonly to: number } & Id);

function log(world: World, e: TeamsEvent, ids: readonly (string | null | undefined)[], text: string, data?: Json, shown?: string, complete?: (prev: LogEntry) => LineCompletion | null): World {
  const entry = { audience: audienceOf(world, ids), kind: e.type, text, ...(shown !== undefined ? { shown } : {}), ...(data !== undefined ? { data } : {}) };
  return complete === undefined ? appendLog(world, entry) : appendOrComplete(world, entry, complete);
}

/** "takes 4 of 11 damage" with the damage's type named: "takes 4 of 11 piercing damage". */
function typed(line: string, type: string): string {
  if (type === '') return line;
  if (line.endsWith(' damage')) return `${line.slice(0, -' damage'.length)}${type} damage`;
  // "takes 11 of 12 damage (deflection stopped 1)": the type joins "damage", before the why.
  if (/ of \d+ damage \(/.test(line)) return line.replace(/ of (\d+) damage \(/, ` of $1${type} damage (`);
  return / of \d+$/.test(line) ? `${line}${type} damage` : `${line} (${type.trim()})`;
}

/**
 * Why a hit lost some of its damage, in words (review 12 #15: "takes 11 of 12" left it to the reader): what deflection
 * stopped, and how much of that came from size (003 "Size": +1 against a smaller attacker, -1 a larger).
 */
export function deflectionWhy(raw: number | undefined, damage: number | undefined, shift: number): string {
  const stopped = typeof raw === 'number' && typeof damage === 'number' ? raw - damage : 0;
  if (stopped <= 0) return shift < 0 ? ` (deflection ${shift}: a larger attacker)` : '';
  const size = shift === 0 ? '' : `; size ${shift > 0 ? `+${shift}` : String(shift)}: a ${shift > 0 ? 'smaller' : 'larger'} attacker`;
  return ` (deflection stopped ${stopped}${size})`;
}

/**
 * How a hit's damage split, endurance first (003 "Damage"): "6 off endurance, then 5 off health"; '' for an event
 * stored without its starting values.
 */
export function splitWords(endurance: { readonly from?: number; readonly to: number }, health: { readonly from?: number; readonly to: number }): string {
  if (typeof endurance.from !== 'number' || typeof health.from !== 'number') return '';
  const e = endurance.from - endurance.to;
  const h = health.from - health.to;
  if (e > 0 && h > 0) return `${e} off endurance, then ${h} off health`;
  if (e > 0) return `${e} off endurance`;
  if (h > 0) return endurance.from === 0 ? `no endurance left, ${h} off health` : `${h} off health`;
  return '';
}

/** Anyone but a PC (by its character, or its combatant): its endurance and health are the GM's (ADR 33). */
export function isFoe(w: World, id: unknown): boolean {
  if (typeof id !== 'string') return true;
  const chId = own(getTeams(w).sheets, id)?.characterId ?? (own(w.characters, id) === undefined ? null : id);
  // A character a player holds (a PC, or a seat's own retainer) is theirs to read.
  if (chId !== null && own(w.characters, chId) !== undefined && !isFoeCharacter(w, chId)) return false;
  return own(getEncounter(w).combatants, id)?.kind !== 'pc';
}

/** History as players read it: a foe's damage and GM-set values without its numbers (ADR 33). */
export const TEAMS_EVENT_VIEW: { readonly [type: string]: (w: World, e: EngineEvent) => EngineEvent } = {
  // `raw` with the damage dealt would give a foe's deflection away.
  'teams.damaged': foeNumbersView({ id: 'id', numbers: ['endurance', 'health', 'raw'], foe: isFoe }),
  // A foe's attack: its test's dice and result (ADR 40); a foe attacked: its Evasion, until the GM shows defences.
  'teams.attacked': both(foeNumbersView({ id: 'attacker', numbers: ['roll', 'result', 'criticalThreshold'], foe: isFoe }), foeNumbersView({ id: 'target', numbers: ['evasion'], foe: isFoe, revealedBy: 'defences' })),
  'teams.intercepted': foeNumbersView({ id: 'by', numbers: ['evasion'], foe: isFoe, revealedBy: 'defences' }),
  'teams.restored': foeNumbersView({ id: 'id', numbers: ['from', 'to'], foe: isFoe }),
  // A foe's stamina, focus and item durability (numbers), and how its defences split a hit (review 7).
  'teams.resourceSpent': foeNumbersView({ id: 'id', numbers: ['n', 'from', 'to'], foe: isFoe }),
  'teams.itemDamaged': foeNumbersView({ id: 'id', numbers: ['from', 'to'], foe: isFoe }),
  'teams.hitResolved': foeNumbersView({ id: 'target', numbers: ['raw', 'toItem', 'parryBonus', 'sizeShift'], foe: isFoe, revealedBy: 'defences' }),
  // Difficulties worked out from a foe's constitution and luck are its numbers too.
  'teams.consciousnessAtRisk': foeNumbersView({ id: 'id', numbers: ['difficulty'], foe: isFoe }),
  'teams.fortified': foeNumbersView({ id: 'id', numbers: ['difficulty'], foe: isFoe }),
  'teams.deathRisked': foeNumbersView({ id: 'id', numbers: ['difficulty', 'newDifficulty'], foe: isFoe }),
  'teams.killed': foeNumbersView({ id: 'target', numbers: ['difficulty'], foe: isFoe }),
  'teams.killingStrikeFailed': foeNumbersView({ id: 'target', numbers: ['difficulty'], foe: isFoe }),
};

/** Two history views of one event type, one after the other. */
function both(a: (w: World, e: EngineEvent) => EngineEvent, b: (w: World, e: EngineEvent) => EngineEvent): (w: World, e: EngineEvent) => EngineEvent {
  return (w, e) => b(w, a(w, e));
}

/** Do players read a foe's Evasion (the GM shows defences, ADR 33)? */
const foeDefencesShown = (w: World): boolean => foeRevealOf(w) !== 'none';

/** A roll record; a table written without one reads as 0 (never written by today's commands). */
function roll(r: RollRecord | undefined): RollRecord {
  return r ?? { total: 0, luck: 0 };
}

/**
 * An attack test's dice as 003's examples tell them ("strength 4 + combat 2 +1 = 7 with luck 12"): the attribute and
 * combat skill faces, the fixed bonus (proficiency, penalty), the result and the luck die; "best of 2" with
 * advantage. A roll stored without its faces reads as the result alone.
 */
export function attackDice(r: RollRecord, attribute: string | undefined, result: number, pen = ''): string {
  if (r.attribute === undefined) return `${result}${pen}`;
  const bonus = r.bonus ?? 0;
  const parts = [`${attribute ?? 'attribute'} ${r.attribute}`, ...(r.skill === null || r.skill === undefined ? [] : [`combat ${r.skill}`])].join(' + ');
  const best = (r.sets?.length ?? 1) > 1 ? ` (best of ${r.sets!.length})` : '';
  const luck = r.luckDie === undefined || r.luckDie === r.luck ? `${r.luck}` : `${r.luckDie} (${r.luck} with its modifier)`;
  return `${parts}${bonus === 0 ? '' : ` ${bonus > 0 ? '+' : '-'}${Math.abs(bonus)}`}${best} = ${result}${pen} with luck ${luck}`;
}

export function statusWords(sh: Sheet): string {
  if (sh.dead) return 'dead';
  const w: string[] = [];
  if (!sh.conscious) w.push('unconscious');
  if (isHarmed(sh.endurance, sh.maxEndurance)) w.push('harmed');
  if (isBloodied(sh.health, sh.maxHealth)) w.push('bloodied');
  return w.length === 0 ? 'unhurt' : w.join(', ');
}

const evolve: Evolve<TeamsEvent> = {
  'teams.sheetSet': (world, e) => {
    const id = e.id;
    const w = updateTeams(world, (st) => ({ ...st, sheets: { ...st.sheets, [id]: e.sheet } }));
    return log(w, e, [id], `${nameOf(w, id)}'s sheet was set.`);
  },
  'teams.sheetRemoved': (world, e) => {
    const id = e.id;
    const name = nameOf(world, id);
    const w = log(world, e, [id], `${name}'s sheet was removed.`);
    return updateTeams(w, (st) => ({ ...st, sheets: without(st.sheets, id), atRisk: without(st.atRisk, id) }));
  },
  'teams.attacked': (world, e) => {
    const attacker = e.attacker;
    const target = e.target;
    const round = e.round;
    let w = claimId(world, e.id);
    w = updateTeams(w, (st) => {
      const prev = st.attackCounts[attacker];
      const encounter = e.encounter ?? 0;
      const count = prev !== undefined && prev.round === round && (prev.encounter ?? 0) === encounter ? prev.count + 1 : 1;
      return { ...st, attackCounts: { ...st.attackCounts, [attacker]: { round, encounter, count } } };
    });
    const r = roll(e.roll);
    const astray = e.intended !== e.target ? ` The shot went astray (luck ${r.luck}) and ${nameOf(w, target)} became the target instead of ${nameOf(w, e.intended)}.` : '';
    const pen = e.penalty !== 0 ? ` (${e.penalty} for earlier attacks this round)` : '';
    const verdict = e.critical === true ? `a critical hit (luck ${r.luck})` : e.hit === true ? 'a hit' : 'a miss';
    const rolled = attackDice(r, e.attribute, e.result, pen);
    // A foe's test result gives away its dice and proficiency (ADR 33, ADR 40): players read the verdict until every number is shown.
    // A PC's attack on a foe: the dice and result, not the Evasion it was compared with, until the GM shows defences.
    const shown =
      isFoe(w, attacker) && !showsFoeNumbers(w)
        ? `${nameOf(w, attacker)} attacked ${nameOf(w, target)}: ${verdict}.${astray}`
        : isFoe(w, target) && !foeDefencesShown(w)
          ? `${nameOf(w, attacker)} attacked ${nameOf(w, target)}: ${rolled}, ${verdict}.${astray}`
          : undefined;
    return log(w, e, [attacker, target, e.intended], `${nameOf(w, attacker)} attacked ${nameOf(w, target)}: ${rolled} against evasion ${e.evasion}, ${verdict}.${astray}`, undefined, shown);
  },
  'teams.hitPending': (world, e) => {
    const p = e.attack;
    const w = updateTeams(world, (st) => ({ ...st, pending: { ...st.pending, [p.id]: p } }));
    return log(w, e, [p.attacker, p.target], `${nameOf(w, p.target)} may react before the damage lands.`);
  },
  'teams.intercepted': (world, e) => {
    const id = e.attack;
    const by = e.by;
    const from = e.from;
    const w = updateTeams(world, (st) => {
      const p = own(st.pending, id);
      if (p === undefined) return st;
      const pending = e.stillHits === true ? { ...st.pending, [id]: { ...p, target: by, intercepted: from, freeReaction: true } } : without(st.pending, id);
      return { ...st, pending };
    });
    const shown = e.stillHits !== true && isFoe(w, by) && !foeDefencesShown(w) ? `${nameOf(w, by)} stepped in front of ${nameOf(w, from)}, and the attack (${e.result}) missed.` : undefined;
    return log(w, e, [by, from], `${nameOf(w, by)} stepped in front of ${nameOf(w, from)}${e.stillHits === true ? ' and is now the target' : `, and the attack (${e.result}) missed against evasion ${e.evasion}`}.`, undefined, shown);
  },
  'teams.hitResolved': (world, e) => {
    const id = e.attack;
    const target = e.target;
    const w = updateTeams(world, (st) => ({ ...st, pending: without(st.pending, id) }));
    const who = nameOf(w, target);
    const item = typeof e.item === 'string' ? (own(getTeams(w).sheets, target)?.items[e.item]?.name ?? e.item) : '';
    let text: string;
    if (e.avoided === true) text = `${who} dodged the attack.`;
    else if (e.reaction === 'block') text = `${who} blocked with the ${item}: ${e.toItem} to the ${item}, ${e.damage} through.`;
    else if (e.reaction === 'parry') text = `${who} parried with the ${item} (+${e.parryBonus}) and takes ${e.damage} of ${e.raw}.`;
    else text = `${who} takes ${e.damage} of ${e.raw} damage${deflectionWhy(e.raw, e.damage, e.sizeShift ?? 0)}.`;
    // A foe's deflection, parry value and item are its defences: players read what happened, not the split (review 7).
    const hidden = e.avoided !== true && isFoe(w, target) && !foeDefencesShown(w);
    const shown = !hidden ? undefined : e.reaction === 'block' ? `${who} blocked with the ${item}.` : e.reaction === 'parry' ? `${who} parried with the ${item}.` : `${who} is hit.`;
    // What the hit does to endurance and health completes this line (teams.damaged): one hit, one line.
    return log(w, e, [target, e.attacker], text, e.avoided !== true && (e.damage ?? 0) > 0 ? { damageTo: target } : undefined, shown);
  },
  'teams.dodgeRolled': (world, e) => {
    const id = e.id;
    return log(world, e, [id], `${nameOf(world, id)} tried to dodge: ${roll(e.roll).total} against ${e.difficulty}, ${e.success === true ? 'avoided' : 'failed'}.`);
  },
  'teams.resourceSpent': (world, e) => {
    const id = e.id;
    const res = e.resource;
    const to = e.to;
    const w = updateSheet(world, id, (sh) => (res === 'focus' ? { ...sh, focus: to } : { ...sh, stamina: to }));
    // A foe's stamina and focus are its numbers (review 7: "Bandit 1 spent 1 stamina (2 left)" on phones).
    const shown = isFoe(w, id) && !showsFoeNumbers(w) ? `${nameOf(w, id)} spent ${res} for ${e.for}.` : undefined;
    return log(w, e, [id], `${nameOf(w, id)} spent ${e.n} ${res} (${to} left) for ${e.for}.`, undefined, shown);
  },
  'teams.itemDamaged': (world, e) => {
    const id = e.id;
    const item = e.item;
    const to = e.to;
    const w = updateSheet(world, id, (sh) => {
      const it = sh.items[item];
      return it === undefined ? sh : { ...sh, items: { ...sh.items, [item]: { ...it, durability: to } } };
    });
    const name = own(getTeams(w).sheets, id)?.items[item]?.name ?? item;
    const shown = isFoe(w, id) && !showsFoeNumbers(w) ? `${nameOf(w, id)}'s ${name} was damaged${to === 0 ? ' and broke' : ''}.` : undefined;
    return log(w, e, [id], `${nameOf(w, id)}'s ${name} took ${e.from - to} durability damage (${to} left)${to === 0 ? ' and broke' : ''}.`, undefined, shown);
  },
  'teams.damaged': (world, e) => {
    const id = e.id;
    const end = e.endurance;
    const hp = e.health;
    const w = updateSheet(world, id, (sh) => ({ ...sh, endurance: Number(end.to), health: Number(hp.to) }));
    const sh = own(getTeams(w).sheets, id);
    // A nonlethal blow says so (003 "Death": it decides whether reaching zero health risks death).
    const type = `${e.nonlethal === true ? ' nonlethal' : ''}${typeof e.damageType === 'string' ? ` ${e.damageType}` : ''}`;
    // Players read a foe's damage, not its endurance or health (ADR 33); its fall has its own line.
    const shown = isFoe(world, id) && !showsFoeNumbers(world) ? `${nameOf(w, id)} took ${e.amount}${type} damage.` : undefined;
    const before = typeof e.raw === 'number' ? ` (${e.raw} before deflection)` : '';
    const result = `endurance ${end.to}, health ${hp.to}${sh === undefined ? '' : ` (${statusWords(sh)})`}`;
    const completes = (prev: LogEntry): LineCompletion | null => {
      const d = prev.data;
      if (d === null || typeof d !== 'object' || Array.isArray(d) || d['damageTo'] !== id || typeof e.raw === 'number') return null;
      const head = typed(openSentence(prev.text), type);
      // Endurance before health, said (review 12 #15); the numbers after it as every damage line has them.
      const split = splitWords(end as { from?: number; to: number }, hp as { from?: number; to: number });
      const text = `${head}: ${split === '' ? '' : `${split}; `}${result}.`;
      if (shown === undefined) return prev.shown === undefined ? { text } : { text, shown: `${openSentence(prev.shown)}: ${result}.` };
      // Players read the hit and the damage dealt; a foe's deflection split (prev.shown) and its tracks stay the GM's.
      return { text, shown: prev.shown === undefined ? `${head}.` : `${openSentence(prev.shown)}: ${e.amount}${type} damage.` };
    };
    return log(w, e, [id], `${nameOf(w, id)} took ${e.amount}${type} damage${before}: ${result}.`, undefined, shown, completes);
  },
  'teams.consciousnessAtRisk': (world, e) => {
    const id = e.id;
    const w = updateTeams(world, (st) => ({ ...st, atRisk: { ...st.atRisk, [id]: { difficulty: e.difficulty } } }));
    // A foe's difficulties come from its constitution and luck (ADR 33): players read what happens, not the number.
    const shown = isFoe(world, id) && !showsFoeNumbers(world) ? `${nameOf(w, id)} is missing more health than their constitution: fortify or fall unconscious.` : undefined;
    return log(w, e, [id], `${nameOf(w, id)} is missing more health than their constitution: fortify against ${e.difficulty} or fall unconscious.`, undefined, shown);
  },
  'teams.fortified': (world, e) => {
    const id = e.id;
    const w = updateTeams(world, (st) => ({ ...st, atRisk: without(st.atRisk, id) }));
    const shown = isFoe(world, id) && !showsFoeNumbers(world) ? `${nameOf(w, id)} fortified: ${roll(e.roll).total}, ${e.success === true ? 'stays conscious' : 'fails'}.` : undefined;
    return log(w, e, [id], `${nameOf(w, id)} fortified: ${roll(e.roll).total} against ${e.difficulty}, ${e.success === true ? 'stays conscious' : 'fails'}.`, undefined, shown);
  },
  'teams.fellUnconscious': (world, e) => {
    const id = e.id;
    const w = updateTeams(updateSheet(world, id, (sh) => ({ ...sh, conscious: false })), (st) => ({ ...st, atRisk: without(st.atRisk, id) }));
    return log(w, e, [id], `${nameOf(w, id)} fell unconscious (${e.reason}).`);
  },
  'teams.deathRisked': (world, e) => {
    const id = e.id;
    const survived = e.survived === true;
    const w = updateSheet(world, id, (sh) => (survived ? { ...sh, deathDifficulty: e.newDifficulty } : { ...sh, dead: true, conscious: false }));
    const shown = isFoe(world, id) && !showsFoeNumbers(world) ? `${nameOf(w, id)} risked death: luck ${e.total}, ${survived ? 'cheated death' : 'died'}.` : undefined;
    return log(w, e, [id], `${nameOf(w, id)} risked death: luck ${e.total} against ${e.difficulty}, ${survived ? `cheated death (next time ${e.newDifficulty})` : 'died'}.`, undefined, shown);
  },
  'teams.killed': (world, e) => {
    const id = e.target;
    const w = updateSheet(world, id, (sh) => ({ ...sh, dead: true, conscious: false }));
    const shown = isFoe(world, id) && !showsFoeNumbers(world) ? `${nameOf(w, e.attacker)} killed ${nameOf(w, id)} with a killing strike (${roll(e.roll).total} against its constitution).` : undefined;
    return log(w, e, [id, e.attacker], `${nameOf(w, e.attacker)} killed ${nameOf(w, id)} with a killing strike (${roll(e.roll).total} against constitution ${e.difficulty}).`, undefined, shown);
  },
  'teams.killingStrikeFailed': (world, e) =>
    log(
      world,
      e,
      [e.target, e.attacker],
      `${nameOf(world, e.attacker)}'s killing strike failed (${roll(e.roll).total} against constitution ${e.difficulty}); a sneak attack follows.`,
      undefined,
      isFoe(world, e.target) && !showsFoeNumbers(world) ? `${nameOf(world, e.attacker)}'s killing strike failed (${roll(e.roll).total} against its constitution); a sneak attack follows.` : undefined,
    ),
  'teams.revived': (world, e) => {
    const id = e.target;
    const ok = e.success === true;
    const w = ok ? updateTeams(updateSheet(world, id, (sh) => ({ ...sh, conscious: true })), (st) => ({ ...st, atRisk: without(st.atRisk, id) })) : world;
    return log(w, e, [id, e.by], `${nameOf(w, e.by)} tried to resuscitate ${nameOf(w, id)}: ${roll(e.roll).total} against ${e.difficulty}, ${ok ? 'conscious again' : 'no luck'}.`);
  },
  'teams.tested': (world, e) => {
    const id = e.id;
    return log(world, e, [id], `${nameOf(world, id)}: ${e.label} ${roll(e.roll).total} against ${e.difficulty}, ${e.success === true ? 'success' : 'failure'}.`);
  },
  'teams.acted': (world, e) => {
    const id = e.id;
    const extended = e.extended === true ? ` (started; ${e.remaining} action(s) still to spend)` : '';
    const target = typeof e.target === 'string' ? ` on ${nameOf(world, e.target)}` : '';
    return log(world, e, [id, typeof e.target === 'string' ? e.target : null], `${nameOf(world, id)}: ${e.action}${target}${extended}.`);
  },
  'teams.commanded': (world, e) => {
    const ally = e.ally;
    const by = e.by;
    const w = updateTeams(world, (st) => ({ ...st, commanded: { ...st.commanded, [ally]: { by, serial: getEncounter(world).turnSerial } } }));
    return log(w, e, [ally, by], `${nameOf(w, by)} commanded ${nameOf(w, ally)}, who may take one action now.`);
  },
  'teams.commandUsed': (world, e) => updateTeams(world, (st) => ({ ...st, commanded: without(st.commanded, e.ally) })),
  'teams.brandished': (world, e) => {
    const id = e.id;
    const items = e.items.map(String);
    const w = updateSheet(world, id, (sh) => ({ ...sh, wielded: items }));
    return log(w, e, [id], `${nameOf(w, id)} now holds ${items.length === 0 ? 'nothing' : items.map((i) => own(getTeams(w).sheets, id)?.items[i]?.name ?? i).join(' and ')}.`);
  },
  'teams.dropped': (world, e) => {
    const id = e.id;
    const item = e.item;
    return updateSheet(world, id, (sh) => ({ ...sh, wielded: sh.wielded.filter((x) => x !== item) }));
  },
  'teams.restored': (world, e) => {
    const id = e.id;
    const field = e.field;
    const to = e.to;
    const w = updateSheet(world, id, (sh) => ({ ...sh, [field]: to }));
    return log(w, e, [id], restoredWords(nameOf(w, id), field, e.from, to, true), undefined, isFoe(world, id) && !showsFoeNumbers(world) ? restoredWords(nameOf(w, id), field, e.from, to, false) : undefined);
  },
};

const TRACK_WORDS: { readonly [k: string]: string } = { endurance: 'endurance', health: 'health', stamina: 'stamina', focus: 'focus', deathDifficulty: 'death difficulty' };

/**
 * The GM's change to a track as people say it (review 9: a heal read "endurance set to 3 by the GM"): a track that
 * goes up "heals" (endurance, health) or "regains" (stamina, focus), one that goes down "loses"; the numbers only when
 * `numbers` (a foe's stay with the GM until revealed, ADR 33).
 */
export function restoredWords(name: string, field: string, from: number, to: number, numbers: boolean): string {
  const what = TRACK_WORDS[field] ?? field;
  if (field === 'deathDifficulty') return numbers ? `${name}'s death difficulty is now ${to} (the GM).` : `The GM changed ${name}'s death difficulty.`;
  if (to === from) return `${name}'s ${what} stays at ${numbers ? to : 'its value'}.`;
  const healing = field === 'endurance' || field === 'health';
  if (!numbers) return to > from ? `${name} ${healing ? 'heals' : 'regains'} some ${what}.` : `${name} loses some ${what}.`;
  const n = Math.abs(to - from);
  return to > from ? `${name} ${healing ? 'heals' : 'regains'} ${n} ${what} (now ${to}).` : `${name} loses ${n} ${what} (now ${to}).`;
}

export const TEAMS_REDUCERS: { readonly [type: string]: Reducer } = reducersOf(evolve);
