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
    { label: 'Quick rest', summary: 'Encounter powers come back and Recharge powers roll; recoveries are spent from the sheet editor (002 "Quick Rest").', command: { type: 'tsw.quickRest', recoveries: {} } },
    { label: 'Full rest', summary: 'Hit points, recoveries and powers reset; a new adventuring day begins (002 "Full Rest").', command: { type: 'tsw.fullRest' } },
  ],
};

/** The ruleset's rests, or an empty list when its rests are only the clock's. */
export function restsOf(rulesetId: string): readonly RestOption[] {
  return RESTS[rulesetId] ?? [];
}
