// Read-only questions for the GM screen and a player's phone: the exact odds
// of a teams.attack as it would be made now. Answered on the asker's projected
// world: a hidden sheet is not there, and a secret one is only a name and
// status words there, so a player gets an error instead of its evasion.
import { defineQuery, FOE_SECRET, own, secretDefence, seesFoeDefence, showsFoeNumbers, type Json, type Query, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { effectiveEvasion, isError, prepareAttack, sheetOf, type AttackInput } from './combat.js';
import { readAttack } from './input.js';
import { attackOdds } from './odds.js';
import { defendOddsQuery, killingStrikeOddsQuery, reactionsQuery, testOddsQuery } from './choices.js';
import * as D from './declarations.js';
import { isFoe } from './reducers.js';
import { getTeams } from './state.js';

type Args = { readonly [key: string]: Json };
type Answer = ReturnType<Query>;

const fail = (code: string, message: string, path: string): Answer => ({ ok: false, error: { code, message, path } });

/** The attack's arguments, read as teams.attack reads them (an odds question never waits: `await` is off). */
function readArgs(world: World, args: Args): AttackInput | RuleError {
  for (const k of ['sneak', 'flank'] as const) if (args[k] !== undefined && typeof args[k] !== 'boolean') return { code: 'INVALID_VALUE', message: `${k} must be true or false`, path: k };
  const a = readAttack(world, { type: 'teams.attack', ...args });
  return isError(a) ? a : { ...a, await: false };
}

/** The teams.attackOdds answer: hit (critical included), critical, astray and miss, and the numbers behind them. */
export function attackOddsQuery(world: World, args: Args, viewer: Viewer): Answer {
  const a = readArgs(world, args);
  if (isError(a)) return { ok: false, error: a };
  const sheets = getTeams(world).sheets;
  for (const k of ['attacker', 'target'] as const) {
    const sh = own(sheets, a[k]);
    if (sh === undefined) {
      const missing = sheetOf(world, a[k], `${k}Id`);
      return { ok: false, error: isError(missing) ? missing : { code: 'NOT_FOUND', message: 'no sheet', path: `${k}Id` } };
    }
    // In a player's projection a secret sheet is a name and status words: no numbers to reckon with.
    if (viewer.role !== 'gm' && sh.secret === true) return fail('VALUES_HIDDEN', `the GM keeps ${sh.name}'s numbers secret`, `${k}Id`);
  }
  // A foe's Evasion decides the odds, and a foe attacker's weapon and dice (ADR 33): players get them once the GM reveals them.
  if (viewer.role !== 'gm') {
    if (isFoe(world, a.attacker) && !showsFoeNumbers(world)) return fail(FOE_SECRET, `the GM keeps ${sheets[a.attacker]!.name}'s numbers secret`, 'attackerId');
    if (isFoe(world, a.target) && !seesFoeDefence(world, viewer)) return fail(FOE_SECRET, secretDefence(sheets[a.target]!.name, 'Evasion'), 'targetId');
  }
  const prep = prepareAttack(world, a);
  if (isError(prep)) return { ok: false, error: prep };
  const odds = attackOdds(world, a);
  if (isError(odds)) return { ok: false, error: odds };
  const target = sheets[a.target]!;
  return {
    ok: true,
    value: {
      ...odds,
      weapon: prep.item.name,
      attribute: prep.attribute,
      proficiency: prep.proficiency,
      advantage: prep.advantage,
      penalty: prep.penalty === 0 ? 0 : prep.penalty, // never -0 on the wire
      earlierAttacks: prep.earlier,
      ranged: prep.ranged,
      criticalThreshold: prep.criticalThreshold,
      // Evasion as this attack meets it (defence bonus and size shift included).
      evasion: effectiveEvasion(world, a.target, target, prep.attacker.size),
    },
  };
}

export const teamsQueries: { readonly [name: string]: Query } = {
  'teams.attackOdds': attackOddsQuery,
  'teams.reactions': defineQuery(D.reactionsQuery, reactionsQuery),
  'teams.testOdds': defineQuery(D.testOddsQuery, testOddsQuery),
  'teams.defendOdds': defineQuery(D.defendOddsQuery, defendOddsQuery),
  'teams.killingStrikeOdds': defineQuery(D.killingStrikeOddsQuery, killingStrikeOddsQuery),
};
