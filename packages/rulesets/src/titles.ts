// Each ruleset's name as its players know it, for the screens' headers
// (browser entry, ADR 7: imports nothing at run time). A lib test keeps it
// equal to the registry's names.
const TITLES: { readonly [rulesetId: string]: string } = {
  osr: 'OSR',
  '36th-way': 'The 36th Way',
  teams: 'Teams',
  kleptonomicon: 'The Kleptonomicon',
  daggerheart: 'Daggerheart',
};

/** The ruleset's name, or its id for one this browser entry does not know. */
export function rulesetTitleOf(rulesetId: string): string {
  return Object.hasOwn(TITLES, rulesetId) ? TITLES[rulesetId]! : rulesetId;
}
