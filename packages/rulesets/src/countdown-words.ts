// What the countdowns panel offers and says on each ruleset's tables (issue
// 20, ADR 52). The countdowns module is system-agnostic (000 gives it; every
// table may keep countdowns), but only Daggerheart rolls the duality dice its
// standard and dynamic kinds tick on, and only rulesets with rests tick a
// long-term one. The generic outcome buttons stay on every table (a chase is
// judged by them), named in neutral words where no roll is "with Hope".
// Browser entry (ADR 7): imports nothing at run time.

/** The countdown kinds, as the countdowns module names them. */
export type CountdownKindId = 'standard' | 'progress' | 'consequence' | 'longTerm' | 'manual';
/** The five outcomes the advancement table is keyed on (the engine's DualityOutcome). */
export type OutcomeId = 'critical' | 'successWithHope' | 'successWithFear' | 'failureWithHope' | 'failureWithFear';

export interface CountdownWords {
  /** The kinds the "New countdown" form offers, first the default, each with its words. */
  readonly kinds: readonly { readonly value: CountdownKindId; readonly label: string }[];
  /** What the outcome buttons' group is called ("Action roll"). */
  readonly rollLabel: string;
  /** The outcome buttons, in the advancement table's order, each with its words. */
  readonly outcomes: readonly { readonly value: OutcomeId; readonly label: string }[];
  /** Whether the ruleset rolls the duality dice, so exact odds (an action roll of +N vs a difficulty) mean something. */
  readonly dualityOdds: boolean;
}

const MANUAL = { value: 'manual', label: 'By hand only' } as const;
const LONG_TERM = { value: 'longTerm', label: 'Long-term (ticks on rests)' } as const;

const DAGGERHEART: CountdownWords = {
  kinds: [
    { value: 'standard', label: 'Standard (ticks each action roll)' },
    { value: 'progress', label: 'Dynamic: progress' },
    { value: 'consequence', label: 'Dynamic: consequence' },
    LONG_TERM,
    MANUAL,
  ],
  rollLabel: 'Action roll',
  outcomes: [
    { value: 'critical', label: 'Critical' },
    { value: 'successWithHope', label: 'Success with Hope' },
    { value: 'successWithFear', label: 'Success with Fear' },
    { value: 'failureWithHope', label: 'Failure with Hope' },
    { value: 'failureWithFear', label: 'Failure with Fear' },
  ],
  dualityOdds: true,
};

/**
 * A roll's outcome in any game's words: the table's columns read as a clean
 * success, a success at a cost, a plain failure and a failure that makes
 * things worse (progress 2/1/0/0, consequence 0/1/1/2 in 000's table).
 */
const NEUTRAL_OUTCOMES: CountdownWords['outcomes'] = [
  { value: 'critical', label: 'Critical success' },
  { value: 'successWithHope', label: 'Clean success' },
  { value: 'successWithFear', label: 'Success at a cost' },
  { value: 'failureWithHope', label: 'Failure' },
  { value: 'failureWithFear', label: 'Failure with a complication' },
];

/** Tables whose rests tick a long-term countdown (their rest commands move the clock by a short or long rest). */
const withRests = (): CountdownWords => ({ kinds: [MANUAL, LONG_TERM], rollLabel: "A roll's outcome", outcomes: NEUTRAL_OUTCOMES, dualityOdds: false });
/** Tables with no rest rule: a countdown moves by hand (a chase still moves on a roll's outcome). */
const byHand = (): CountdownWords => ({ kinds: [MANUAL], rollLabel: "A roll's outcome", outcomes: NEUTRAL_OUTCOMES, dualityOdds: false });

const WORDS: { readonly [rulesetId: string]: CountdownWords } = {
  daggerheart: DAGGERHEART,
  // 001: a night's rest is a long rest on the clock.
  osr: withRests(),
  // 002: quick and full rests.
  '36th-way': withRests(),
  // 003 has no rest rule; 004's resets come with the Episode, not a rest.
  teams: byHand(),
  kleptonomicon: byHand(),
};

/** The countdowns panel's words and kinds for this ruleset; one this entry does not know gets every kind, neutrally named. */
export function countdownWordsOf(rulesetId: string): CountdownWords {
  if (Object.hasOwn(WORDS, rulesetId)) return WORDS[rulesetId]!;
  return { ...DAGGERHEART, rollLabel: "A roll's outcome", outcomes: NEUTRAL_OUTCOMES, dualityOdds: false };
}

/** A countdown's visibility in the GM's words, never its key ("existence" reads "Name only"). */
export const VISIBILITY_WORDS: readonly { readonly value: 'visible' | 'existence' | 'reveal-on-trigger' | 'hidden'; readonly label: string; readonly chip: string }[] = [
  { value: 'visible', label: 'Visible to players', chip: 'Visible' },
  { value: 'existence', label: 'Name only', chip: 'Name only' },
  { value: 'reveal-on-trigger', label: 'Name only until it triggers, then visible', chip: 'Reveal when it triggers' },
  { value: 'hidden', label: 'Hidden', chip: 'Hidden' },
];

/** The chip a countdown's visibility shows; an unknown key reads as "Hidden" rather than leaking a key. */
export function visibilityChip(visibility: string): string {
  return VISIBILITY_WORDS.find((v) => v.value === visibility)?.chip ?? 'Hidden';
}
