// What each ruleset's screens offer (issue 17, STYLE 6): the web asks this
// descriptor which panels to show and which words to use, never the ruleset's
// id, so a new ruleset that reuses these panels declares them here and changes
// no web code. Browser entry (ADR 7): imports nothing at run time.

/**
 * Panels beside the shared ones (tracker, countdowns, dice, clock, log):
 * - `episode`: the Kleptonomicon's Episode bar and its Edge Save list (GM and phone);
 * - `daggerheart`: Fear, Hope and slots, the spotlight and rests board (GM) and panel (phone);
 * - `exploration`: the OSR exploration panel (GM), which widens the GM grid;
 * - `lights`: light sources a phone carries and lights (OSR);
 * - `fightSummary`: who is dead, dying or standing at a fight's end, and the morale prompt (OSR);
 * - `rowActions`: a tracker row's own rule buttons (OSR's dying and stabilising);
 * - `recoveries`: a quick rest that spends each PC's recoveries (the 36th Way);
 * - `tools`: the GM's rule forms for the party and each character, from the ruleset's `<id>.toolActions` query (issue 20);
 * - `ranges`: the GM sets the range between two creatures on a tracker row (the 36th Way's engaged / nearby / far).
 */
export type Panel = 'episode' | 'daggerheart' | 'exploration' | 'lights' | 'fightSummary' | 'rowActions' | 'recoveries' | 'tools' | 'ranges';

export interface Capabilities {
  readonly panels: readonly Panel[];
  /** The query that lists a creature's turn actions for the actions panel (ADR 23), or null where the ruleset has none. */
  readonly actionsQuery: string | null;
  /** Turns follow a spotlight the GM passes, with no initiative: the ruleset's board starts fights and adds foes, not the encounter builder. */
  readonly spotlightTurns: boolean;
  /** The ruleset's word for a creature at half its HP or less, or null where its text names no such state (review 9: 003's "bloodied" on OSR rows). */
  readonly halfHpWord: string | null;
  /** A phone may ask the GM for an action roll against a difficulty the GM sets. */
  readonly actionRequests: boolean;
  /** Foes are characters the ruleset makes from a stat block with its own command (and joins to a running fight). */
  readonly foesFromStatBlocks: boolean;
  /** What the actions panel calls the sheet a creature needs before acting or being targeted ("a 36th Way sheet"), or null where the ruleset keeps none of its own. */
  readonly sheetTitle: string | null;
  /**
   * A PC added from the invite panel gets that sheet at once (its attacks, HP and defences live on it): the sheet
   * fields that take the HP typed there (the 36th Way's hp, the teams' health), or null where the ruleset keeps none.
   * What the invite also asks (inviteNeedsOf) goes on that sheet under its own key.
   */
  readonly inviteSheet: readonly string[] | null;
  /**
   * HP is a row of slots a creature marks (000), up to this many, and no other HP: the invite asks
   * for slots and sets `hpMax`; the tracker shows the marked slots, never a generic HP. Null elsewhere.
   */
  readonly hpSlots: number | null;
  /** A foe's numbers live on the character it plays (attacks name characters), so hiding or showing the foe hides or shows that character too. */
  readonly foeVisibilityOnCharacter: boolean;
  /** The query that lists a creature's answers to what just happened (teams' reactions, 36th Way opportunity attacks), or null. */
  readonly reactionsQuery: string | null;
  /** The engine gives a foe its sheet from its stat block when it joins a fight (ADR 69), so the screen sends none. */
  readonly foeSheetsByEngine: boolean;
  /** The query that lists check forms per PC for the checks panel (the GM's; OSR's phone too), in a fight or out; absent where none (left out of the others to spare the phone's bytes). */
  readonly checksQuery?: string;
  /** The command that takes a readied action before another's turn where the ruleset has its own (teams': it spends the reaction); absent: encounter.triggerReady. */
  readonly triggerReadyCommand?: string;
  /** The id, in the actions query's answer, of a readied Attack rolled as the attack (teams'); the row's "Take it now" opens its form, the turn's list leaves it out. */
  readonly readiedAttackAction?: string;
  /** The sheet holds a coin purse that weighs (001 "Treasure"): the phone's sheet says what is carried and changes coins with this command. */
  readonly coinPurse?: string;
}

const PLAIN: Capabilities = { panels: [], actionsQuery: null, spotlightTurns: false, halfHpWord: null, actionRequests: false, foesFromStatBlocks: false, foeVisibilityOnCharacter: false, sheetTitle: null, inviteSheet: null, hpSlots: null, reactionsQuery: null, foeSheetsByEngine: false };

const CAPABILITIES: { readonly [rulesetId: string]: Capabilities } = {
  // 001: exploration turns and light, death's door at 0 HP, morale.
  osr: { ...PLAIN, actionsQuery: 'osr.actions', panels: ['exploration', 'lights', 'fightSummary', 'rowActions', 'tools'], foeVisibilityOnCharacter: true, checksQuery: 'osr.checks', coinPurse: 'osr.convertCoins' },
  // 002: "staggered" at half HP; recoveries spent in a quick rest.
  '36th-way': { ...PLAIN, actionsQuery: '36th-way.actions', panels: ['recoveries', 'ranges'], halfHpWord: 'staggered', sheetTitle: 'a 36th Way sheet', inviteSheet: ['maxHp', 'hp'], reactionsQuery: '36th-way.reactions', foeSheetsByEngine: true, checksQuery: '36th-way.checks' },
  // 003: sheets keyed by creature hold the attributes, skills and items a test reads; the invited PC's health, endurance and stamina too (review 12 #1).
  teams: { ...PLAIN, actionsQuery: 'teams.actions', sheetTitle: 'a sheet', inviteSheet: ['maxHealth'], reactionsQuery: 'teams.reactions', triggerReadyCommand: 'teams.triggerReady', readiedAttackAction: 'readied-attack' },
  // 004: the Episode's phases and Edge Saves.
  kleptonomicon: { ...PLAIN, actionsQuery: 'kleptonomicon.actions', panels: ['episode'], reactionsQuery: 'kleptonomicon.reactions' },
  // 000: the spotlight instead of initiative, action rolls the GM sets a difficulty for, adversaries.
  daggerheart: { ...PLAIN, actionsQuery: 'daggerheart.actions', panels: ['daggerheart'], spotlightTurns: true, actionRequests: true, foesFromStatBlocks: true, hpSlots: 30 },
};

/** The ruleset's capabilities; a ruleset this entry does not know gets the shared screens only. */
export function capabilitiesOf(rulesetId: string): Capabilities {
  return Object.hasOwn(CAPABILITIES, rulesetId) ? CAPABILITIES[rulesetId]! : PLAIN;
}

/** The `<ns>.actions` query of a ruleset, or null when it has none. */
export function actionsQueryOf(rulesetId: string): string | null {
  return capabilitiesOf(rulesetId).actionsQuery;
}

/** Whether the ruleset's screens show this panel. */
export function hasPanel(rulesetId: string, panel: Panel): boolean {
  return capabilitiesOf(rulesetId).panels.includes(panel);
}
