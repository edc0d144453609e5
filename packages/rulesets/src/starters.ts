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
    note: 'Text 001 gives no monster list; its chase rules name the usual speed (30 feet), so the starter is a plain foe at that speed.',
    entries: [{ name: 'Ordinary foe', notes: 'Moves 30 feet, the usual speed (001 "Chases": DC 11 to catch it).', block: { speed: 30, dex: 10 } }],
  },
  teams: {
    note: 'Text 003 fights goblins in its examples and gives their size only (small, 3).',
    entries: [{ name: 'Goblin', notes: 'Small (size 3): a medium attacker treats its evasion as 1 higher and its deflection as 1 lower (003 "Size").', block: { team: 'Foes', size: 3 } }],
  },
  '36th-way': { note: 'Text 002 gives no example foes: enter your own stat blocks.', entries: [] },
  kleptonomicon: { note: 'Text 004 gives no example foes: enter your own stat blocks.', entries: [] },
  daggerheart: { note: 'Text 000 mentions adversary stat blocks but lists none: enter your own.', entries: [] },
};

export function startersOf(rulesetId: string): Starters {
  return STARTERS[rulesetId] ?? { note: 'This ruleset ships no starter foes.', entries: [] };
}
