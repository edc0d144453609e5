// Which query lists a ruleset's turn actions (ADR 23). Browser entry (ADR 7):
// no run-time imports, so the web asks the ruleset instead of matching ids.
const ACTIONS_QUERY: { readonly [rulesetId: string]: string } = {
  osr: 'osr.actions',
  '36th-way': '36th-way.actions',
  teams: 'teams.actions',
  kleptonomicon: 'kleptonomicon.actions',
  daggerheart: 'daggerheart.actions',
};

/** The `<ns>.actions` query of a ruleset, or null when it has none. */
export function actionsQueryOf(rulesetId: string): string | null {
  return Object.hasOwn(ACTIONS_QUERY, rulesetId) ? ACTIONS_QUERY[rulesetId]! : null;
}
