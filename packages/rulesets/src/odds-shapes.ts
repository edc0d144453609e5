// How each ruleset's odds queries read on screen (ADR 58): part of the rulesets'
// capability descriptor, in its own file so only the screens that word odds (the
// actions panel, requests) load it, not the phone's first chunk. Browser entry
// (ADR 7): imports nothing at run time.

/**
 * How an odds query's answer reads on screen (ADR 58): the web words each shape once, and
 * each ruleset names the shape of its own odds queries, so the web switches on neither a
 * ruleset id nor a query name.
 * - `attack3d6`: to hit, crit and crit fail against a defence (the 36th Way);
 * - `check3d6`: a 3d6 check or save against a target, with its reasons (the 36th Way's disengage, death saves);
 * - `attackLuck`: dice against evasion with a luck-die critical and shots astray (teams);
 * - `attackD20`: d20 against AC, with expected damage (OSR);
 * - `adversaryD20`: an adversary's d20 against Evasion, with its damage (Daggerheart);
 * - `testDice`: an attribute and skill die test against a difficulty (teams);
 * - `killingStrike`, `defend`: teams' killing strike and a reaction's outcome;
 * - `scoreAttack`, `scoreTest`: a Score against Defense or a failure line (the Kleptonomicon);
 * - `checkD20`, `moraleD20`: a d20 check or morale check against a DC (OSR);
 * - `duality`: Hope and Fear dice against a difficulty, shown or kept secret (Daggerheart).
 */
export type OddsShape = 'attack3d6' | 'check3d6' | 'attackLuck' | 'attackD20' | 'adversaryD20' | 'testDice' | 'killingStrike' | 'defend' | 'scoreAttack' | 'scoreTest' | 'checkD20' | 'moraleD20' | 'duality';

const ODDS: { readonly [rulesetId: string]: { readonly [query: string]: OddsShape } } = {
  osr: { 'osr.attackOdds': 'attackD20', 'osr.checkOdds': 'checkD20', 'osr.moraleOdds': 'moraleD20', 'osr.chaseOdds': 'checkD20' },
  '36th-way': { '36th-way.attackOdds': 'attack3d6', '36th-way.disengageOdds': 'check3d6', '36th-way.deathSaveOdds': 'check3d6', '36th-way.checkOdds': 'check3d6', '36th-way.grantSaveOdds': 'check3d6', '36th-way.sustainOdds': 'check3d6' },
  teams: { 'teams.attackOdds': 'attackLuck', 'teams.testOdds': 'testDice', 'teams.killingStrikeOdds': 'killingStrike', 'teams.defendOdds': 'defend' },
  kleptonomicon: { 'kleptonomicon.attackOdds': 'scoreAttack', 'kleptonomicon.testOdds': 'scoreTest' },
  daggerheart: { 'daggerheart.adversaryAttackOdds': 'adversaryD20', 'daggerheart.actionRollOdds': 'duality', 'daggerheart.rollOdds': 'duality' },
};

/** The shapes of a ruleset's odds queries, by query name (none for a ruleset this entry does not know). */
export function oddsShapesOf(rulesetId: string): { readonly [query: string]: OddsShape } {
  return Object.hasOwn(ODDS, rulesetId) ? ODDS[rulesetId]! : {};
}

/** The shape of an odds query's answer (any ruleset's: an action names its query, not its ruleset), or null for one no ruleset declares. */
export function oddsShapeOf(query: string): OddsShape | null {
  for (const shapes of Object.values(ODDS)) if (Object.hasOwn(shapes, query)) return shapes[query]!;
  return null;
}
