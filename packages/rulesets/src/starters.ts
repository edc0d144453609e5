// Starter stat blocks for a new table's bestiary (browser entry, ADR 7): only
// where a rule text gives a foe or its numbers, described in our own words.
// Where a text has none, `note` says so and the GM enters their own.
// Imports nothing at run time.

export interface StarterEntry {
  readonly name: string;
  readonly notes: string;
  readonly block: { readonly [key: string]: string | number | boolean };
}

export interface Starters {
  readonly entries: readonly StarterEntry[];
  /** What the rule text offers (or that it offers none), for the GM. */
  readonly note: string;
}

const STARTERS: { readonly [rulesetId: string]: Starters } = {
  osr: {
    note: 'Text 001 gives no monster list or monster numbers; the starter is a plain 1 HD foe at the usual speed, with the sheet\'s defaults (AC 10). Edit it to suit.',
    entries: [
      {
        name: 'Ordinary foe',
        notes: '1 HD; HP 4, a d8 hit die rounded down (001 bases NPC HP on HD without naming the die); AC 10, the sheet default; moves 30 feet, the usual speed (001 "Chases").',
        block: { hp: 4, ac: 10, hitDice: 1, dex: 10, speed: 30 },
      },
    ],
  },
  teams: {
    note: 'Text 003 fights goblins but gives only their size (small, 3); the other numbers are those of the enemy and the character in its attack and damage examples.',
    entries: [
      {
        name: 'Goblin',
        notes: 'Small (size 3): a medium attacker treats its evasion as 1 higher and its deflection as 1 lower (003 "Size"). Evasion 6 and deflection 8 are the enemy\'s in 003 "Attacks"; endurance 12, health 12 and constitution 4 the character\'s in its damage example; its spear, strength d6, combat d6 and martial +1 are the attacker\'s in 003 "Attacks", so it can attack out of the box.',
        block: {
          team: 'Foes',
          size: 3,
          evasion: 6,
          deflection: 8,
          maxEndurance: 12,
          maxHealth: 12,
          constitution: 4,
          // Review 8: a starter with no weapon could never attack; these are 003's attack example's numbers.
          strength: 'd6',
          combat: 'd6',
          martial: 1,
          weapon: 'Spear',
          weaponDamage: 4,
          criticalDamage: 8,
          criticalThreshold: 19,
          damageType: 'piercing',
        },
      },
    ],
  },
  '36th-way': { note: 'Text 002 gives no example foes: enter your own stat blocks.', entries: [] },
  kleptonomicon: { note: 'Text 004 gives no example foes: enter your own stat blocks.', entries: [] },
  daggerheart: { note: 'Text 000 mentions adversary stat blocks but lists none: enter your own.', entries: [] },
};

export function startersOf(rulesetId: string): Starters {
  return STARTERS[rulesetId] ?? { note: 'This ruleset ships no starter foes.', entries: [] };
}
