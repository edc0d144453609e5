// Read-only questions for the GM screen and a player's phone: "what are the
// odds?" for a 36th-way.attack as the table stands. The engine answers on the
// asker's projected world, so a sheet a player may not see is simply missing
// here and the answer is the same "no sheet" a made-up id gets.
import { defineQuery, FOE_SECRET, secretDefence, seesFoeDefence, showsFoeNumbers, type Json, type Query, type Viewer, type World } from '@tablekeeper/engine';
import { asJson } from '@tablekeeper/engine/events';
import { isFoe } from './logging.js';
import { checksQuery } from './actions.js';
import { checkOdds, deathSaveOdds, disengageOdds, grantSaveOdds, opportunityPrompts, sustainOdds } from './checks.js';
import { checksDeclaration, checkOddsDeclaration, deathSaveOddsDeclaration, disengageOddsDeclaration, grantSaveOddsDeclaration, opportunityPromptsDeclaration, sustainOddsDeclaration } from './declarations.js';
import { opportunityAttackOf } from './combat.js';
import { isDefense, type Defense } from './attack.js';
import { hasCondition, saveAdvantage, type Kit } from './context.js';
import { isDamageType } from './damage.js';
import { attackOddsFor, rollOdds } from './odds.js';
import { errR, okR, type R } from './result.js';
import { numSetting } from './settings.js';
import { defenseOf, getTsw } from './state.js';

type Args = { readonly [key: string]: Json };

/** The arguments 36th-way.attack takes that change the odds, read with the command's own limits. */
interface OddsArgs {
  readonly attacker: string;
  readonly target: string;
  readonly defense: Defense;
  readonly types: readonly string[];
  readonly bonus: number;
  readonly advantage: number;
  readonly coupDeGrace: boolean;
}

function intArg(args: Args, key: string, lo: number, hi: number): R<number> {
  const v = args[key] ?? 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) return errR('INVALID_VALUE', `${key} must be an integer in [${lo}, ${hi}]`, key);
  return okR(v);
}

function readArgs(args: Args): R<OddsArgs> {
  const attacker = args['attackerId'];
  if (typeof attacker !== 'string' || attacker.length === 0) return errR('INVALID_VALUE', 'attackerId must be a sheet id', 'attackerId');
  // One target, or the command's `targetIds` list (the odds are per target: its first).
  const list = args['targetIds'];
  const target = args['targetId'] ?? (Array.isArray(list) ? list[0] : undefined);
  if (typeof target !== 'string' || target.length === 0) return errR('INVALID_VALUE', 'targetId must be a sheet id', 'targetId');
  if (target === attacker) return errR('BAD_TARGET', 'an attack cannot target the attacker', 'targetId');
  const defense = args['defense'] ?? 'ac';
  if (!isDefense(defense)) return errR('INVALID_VALUE', 'defense must be "ac", "pd" or "md"', 'defense');
  const t = args['types'] ?? ['weapon'];
  if (!Array.isArray(t) || t.length === 0 || t.length > 10 || !t.every(isDamageType)) return errR('INVALID_VALUE', 'types must be a list of damage types', 'types');
  const bonus = intArg(args, 'bonus', -50, 50);
  if (!bonus.ok) return bonus;
  const advantage = intArg(args, 'advantage', -6, 6);
  if (!advantage.ok) return advantage;
  const coup = args['coupDeGrace'] ?? false;
  if (typeof coup !== 'boolean') return errR('INVALID_VALUE', 'coupDeGrace must be true or false', 'coupDeGrace');
  return okR({ attacker, target, defense, types: t as string[], bonus: bonus.value, advantage: advantage.value, coupDeGrace: coup });
}

/** The 36th-way.attackOdds answer: chances for one roll against one target, and the numbers behind them. */
export function attackOddsQuery(kit: Kit, world: World, args: Args, viewer: Viewer = { role: 'gm' }): R<Json> {
  const a = readArgs(args);
  if (!a.ok) return a;
  const q = a.value;
  const sheets = getTsw(world).sheets;
  for (const [path, id] of [['attackerId', q.attacker], ['targetId', q.target]] as const) {
    if (!Object.hasOwn(sheets, id)) return errR('NOT_FOUND', `no sheet "${id}"`, path);
  }
  // Exact odds against a hidden defence would give it away (ADR 33): players get them once the GM reveals defences;
  // a foe's own attack needs its level and Volition, which only a table showing every number gives them.
  if (viewer.role !== 'gm') {
    if (isFoe(world, q.attacker) && !showsFoeNumbers(world)) return errR(FOE_SECRET, `${sheets[q.attacker]!.name}'s attack bonus is the GM's secret`, 'attackerId');
    if (isFoe(world, q.target) && !seesFoeDefence(world, viewer)) return errR(FOE_SECRET, secretDefence(sheets[q.target]!.name, 'defence'), 'targetId');
  }
  const ability = args['ability'];
  if (ability !== undefined && (typeof ability !== 'string' || sheets[q.attacker]!.abilities[ability] === undefined)) {
    return errR('NOT_FOUND', `${sheets[q.attacker]!.name} has no ability ${JSON.stringify(ability)}`, 'ability');
  }
  // An attack ability brings its own defense, damage types and bonus (as the command reads them); so does the stat
  // block attack a foe makes its opportunity attacks with.
  const opportunity = typeof args['opportunity'] === 'string';
  const atk = typeof ability === 'string' ? sheets[q.attacker]!.abilities[ability]!.attack : opportunity ? opportunityAttackOf(sheets[q.attacker]!) : undefined;
  if (atk !== undefined && args['defense'] !== undefined && q.defense !== atk.defense) return errR('INVALID_VALUE', `${sheets[q.attacker]!.abilities[ability as string]!.name} attacks ${atk.defense.toUpperCase()}, not ${q.defense.toUpperCase()}`, 'defense');
  // A basic attack goes against AC (002 "Basic Melee/Ranged Attack"), as the command refuses another defence.
  const basic = args['basic'];
  if ((basic === 'melee' || basic === 'ranged') && q.defense !== 'ac') return errR('INVALID_VALUE', `a basic ${basic} attack goes against AC, not ${q.defense.toUpperCase()}`, 'defense');
  const defense = atk?.defense ?? q.defense;
  const types = atk !== undefined && args['types'] === undefined ? atk.types : q.types;
  const o = attackOddsFor(kit, world, { attacker: q.attacker, target: q.target, defense, types, bonus: q.bonus + (atk?.bonus ?? 0), advantage: q.advantage, wholeBonus: atk?.wholeBonus === true });
  if (o === null) return errR('NOT_FOUND', `no sheet "${q.target}"`, 'targetId');
  const defenseValue = defenseOf(sheets[q.target]!, defense);
  // An Invisible target: the attacker's save decides whether the attack has any effect at all
  // (as in the command, a roll with no effect is neither a hit nor a crit fail).
  const invisibleSave = hasCondition(world, q.target, 'invisible') ? rollOdds(saveAdvantage(kit, world, q.attacker), numSetting(world, '36th-way.invisibleSaveTarget'), 0, world) : null;
  const found = invisibleSave ?? 1;
  // A coup de grace crits whatever the dice say.
  const hit = q.coupDeGrace ? 1 : o.hit;
  const crit = q.coupDeGrace ? 1 : o.crit;
  const critFail = q.coupDeGrace ? 0 : o.critFail;
  return okR({
    hit: hit * found,
    crit: crit * found,
    miss: 1 - hit * found,
    critFail: critFail * found,
    invisibleSave,
    net: o.net,
    critAt: o.critAt,
    needed: o.needed,
    bonus: defenseValue - o.needed,
    defense,
    defenseValue,
    coupDeGrace: q.coupDeGrace,
  });
}

export function tswQueries(kit: Kit): { readonly [name: string]: Query } {
  return {
    '36th-way.attackOdds': (world, args, viewer) => attackOddsQuery(kit, world, args, viewer),
    '36th-way.deathSaveOdds': defineQuery(deathSaveOddsDeclaration, (world, args, viewer) => deathSaveOdds(kit, world, args, viewer)),
    '36th-way.disengageOdds': defineQuery(disengageOddsDeclaration, disengageOdds),
    '36th-way.checks': defineQuery(checksDeclaration, (world, _args, viewer) => okR(asJson(checksQuery(world, viewer)))),
    '36th-way.checkOdds': defineQuery(checkOddsDeclaration, (world, args, viewer) => checkOdds(kit, world, args, viewer)),
    '36th-way.grantSaveOdds': defineQuery(grantSaveOddsDeclaration, (world, args, viewer) => grantSaveOdds(kit, world, args, viewer)),
    '36th-way.sustainOdds': defineQuery(sustainOddsDeclaration, sustainOdds),
    '36th-way.reactions': defineQuery(opportunityPromptsDeclaration, opportunityPrompts),
  };
}
