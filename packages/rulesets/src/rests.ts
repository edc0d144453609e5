// Rests the GM screen offers between fights, as the ruleset's own commands
// (browser entry, ADR 7): the ruleset moves the clock and heals by its rules.
// test: e2e/encounter-lib.test.ts runs each through the real engine.
// Imports nothing at run time.

export interface RestOption {
  readonly label: string;
  /** What the rest does, in a sentence for the GM. */
  readonly summary: string;
  readonly command: { readonly type: string; readonly [field: string]: string | number | boolean | { readonly [k: string]: number } };
}

const RESTS: { readonly [rulesetId: string]: readonly RestOption[] } = {
  osr: [
    { label: "A safe night's rest", summary: 'A night passes on the clock; each living PC heals 1 HP per level (001 "Healing From Rest").', command: { type: 'osr.rest', kind: 'safe', nights: 1 } },
    { label: 'An unsafe night', summary: 'A night passes; each living PC regains 1 hit point (001 "Healing From Rest").', command: { type: 'osr.rest', kind: 'unsafe', nights: 1 } },
  ],
  '36th-way': [
    { label: 'Quick rest', summary: 'Encounter powers come back, Recharge powers roll, and each PC heals with the recoveries the GM picks (002 "Quick Rest").', command: { type: '36th-way.quickRest', recoveries: {} } },
    { label: 'Full rest', summary: 'Hit points, recoveries and powers reset; a new adventuring day begins (002 "Full Rest").', command: { type: '36th-way.fullRest' } },
  ],
};

/** The ruleset's rests, or an empty list when its rests are only the clock's. */
export function restsOf(rulesetId: string): readonly RestOption[] {
  return RESTS[rulesetId] ?? [];
}

// What each rule text says about recovering between fights, for the rulesets
// whose rests are not offered as commands above (shown instead of rest buttons).
const NO_REST_NOTES: { readonly [rulesetId: string]: string } = {
  teams:
    'Text 003 has no rest rule: nothing heals by itself between fights. Move the clock with the buttons above; set endurance and health on the sheet if the story says they recover.',
  kleptonomicon:
    'Text 004 has no timed rest: once a fight ends and Freeplay returns, PCs use their Heal Up, Dodges Up and Shields Up abilities; the sheet resets come with the Closing Credits at the end of the Episode (the Episode bar).',
  daggerheart: "Text 000 has its rests in the Rest panel: a short or long rest with each PC's downtime moves, which moves the clock and ticks long-term countdowns.",
};

// Rulesets whose text names rests of its own (OSR, the 36th Way, Daggerheart's
// panel) or none at all (the Kleptonomicon's Episode resets, teams' 003): the
// clock's plain "Short rest" and "Long rest" would be a rule-less way to rest
// (ADR 44: a clock panel offers only the rests its ruleset has).
const OWN_OR_NO_RESTS = new Set(['osr', '36th-way', 'daggerheart', 'kleptonomicon', 'teams']);

/** Whether the clock panel offers its plain short and long rests (they tick long-term countdowns) on this ruleset's tables. */
export function clockRestsOf(rulesetId: string): boolean {
  return !OWN_OR_NO_RESTS.has(rulesetId);
}

/** Why there are no rest buttons (what the rule text says instead), or null when the ruleset has rests. */
export function restNoteOf(rulesetId: string): string | null {
  if (restsOf(rulesetId).length > 0) return null;
  return NO_REST_NOTES[rulesetId] ?? 'This ruleset has no rest rule: move the clock with the buttons above.';
}

/** The clock's rest units in a ruleset's own words, one and many (review 9: a 36th Way quick rest read "1 short rest"). */
const REST_UNIT_NAMES: { readonly [rulesetId: string]: { readonly [unit: string]: readonly [string, string] } } = {
  '36th-way': { shortRest: ['quick rest', 'quick rests'], longRest: ['full rest', 'full rests'] },
};

/** The ruleset's own names for the clock's units, where they differ from the clock's (none: the clock's words). */
export function restUnitNamesOf(rulesetId: string): { readonly [unit: string]: readonly [string, string] } {
  return REST_UNIT_NAMES[rulesetId] ?? {};
}
