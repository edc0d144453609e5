// How each ruleset decides who goes first, as data the web's encounter builder
// reads (browser entry, ADR 7): which turn order the ruleset's encounter uses,
// and the few numbers or words per combatant that order needs. The engine
// still does the ordering (and any rolling) when the encounter starts;
// test/initiative.test.ts checks each entry against the ruleset's engine.
// Imports nothing at run time.

export type InitiativeOrder = 'score' | 'bands' | 'teams' | 'edge-save';

/** One value the encounter builder asks for per combatant (stored in the combatant's stats). */
export interface InitiativeField {
  /** The stat the turn order reads. */
  readonly key: string;
  readonly label: string;
  /** Whole number in [min, max], one of `choices`, or a short text. */
  readonly type: 'int' | 'choice' | 'text';
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  /** Only asked of foes (NPCs), or only of PCs. */
  readonly only?: 'pc' | 'npc';
  /** What the builder fills in when the GM types nothing. */
  readonly defaultFor: { readonly pc: string | number; readonly npc: string | number };
  /** Read from a character's sheet when the combatant stands for one. */
  readonly fromSheet?: boolean;
}

export interface InitiativeMethod {
  readonly order: InitiativeOrder;
  /** One sentence for the GM: how this ruleset orders a round. */
  readonly summary: string;
  /** Where the rule comes from (rule text and heading). */
  readonly source: string;
  readonly fields: readonly InitiativeField[];
  /** The engine rolls when the encounter starts (Edge Saves); otherwise the order follows the numbers given. */
  readonly rolled: boolean;
  /**
   * Rolling the order again at each round's start (ADR 73): the table setting holding the default, or null where
   * the ruleset's text fixes the order or nothing is rolled; `why` says which, for the GM.
   */
  readonly reroll: { readonly setting: string | null; readonly why: string };
  /** Foes sharing one initiative (per type, per side) where the order is each creature's own; none where it is already by side or group. */
  readonly groupBy: { readonly modes: readonly ('type' | 'side')[]; readonly why: string };
  /**
   * A surprise round the builder may start with (issue 20: the engine had it, no click reached it), or null where the
   * text gives none: `side` lets the whole ambushing side act (and the unsurprisable), `actors` up to `most` of them.
   */
  readonly surprise: {
    readonly pick: 'side' | 'actors';
    readonly most: number;
    readonly why: string;
    readonly source: string;
    /** A GM option the text offers when the PCs ambush: the escalation die's shift from round 1 (002: it may start at 1). */
    readonly pcAmbushEscalation?: number;
  } | null;
}

export const INITIATIVE_BANDS = ['very-fast', 'fast', 'medium', 'slow', 'very-slow'] as const;

const METHODS: { readonly [rulesetId: string]: InitiativeMethod } = {
  osr: {
    order: 'score',
    summary: 'Highest DEX score acts first, the same order every round; ties go to the PCs.',
    source: '001 "Initiative"',
    rolled: false,
    reroll: { setting: null, why: 'DEX order is the same every round (001 "Initiative"), and nothing is rolled.' },
    groupBy: { modes: ['type', 'side'], why: 'A group acts at its slowest member\'s DEX, where its faster members could delay to (001 "Initiative").' },
    fields: [{ key: 'dex', label: 'DEX', type: 'int', min: 1, max: 30, defaultFor: { pc: 10, npc: 10 }, fromSheet: true }],
    // 001 names an ambush as what may change the DEX order, with no surprise round of its own.
    surprise: null,
  },
  '36th-way': {
    order: 'bands',
    summary: 'Bands from Very Fast to Very Slow; in each band the PCs go in the order they choose, then the enemies.',
    source: '002 "Initiative Bands"',
    rolled: false,
    reroll: { setting: null, why: 'Bands are chosen, not rolled, and held for the encounter (002 "Initiative Bands").' },
    groupBy: { modes: [], why: 'In each band the PCs go, then the enemies: the order is already by side (002 "Initiative Bands").' },
    fields: [{ key: 'band', label: 'Band', type: 'choice', choices: INITIATIVE_BANDS, defaultFor: { pc: 'medium', npc: 'medium' } }],
    surprise: { pick: 'actors', most: 2, why: 'The ambushers choose two of theirs to act in a surprise round; then the bands go as usual.', source: '002 "Surprise and Ambushes"', pcAmbushEscalation: 1 },
  },
  teams: {
    order: 'teams',
    summary: 'Teams take turns, the initiating team first; each team picks one member who has not acted.',
    source: '003 "Initiative and Rounds"',
    rolled: false,
    reroll: { setting: null, why: 'Teams alternate and pick who acts each round; nothing is rolled (003 "Initiative and Rounds").' },
    groupBy: { modes: [], why: 'Teams take turns: the order is already by side (003 "Initiative and Rounds").' },
    fields: [{ key: 'team', label: 'Team', type: 'text', defaultFor: { pc: 'Party', npc: 'Foes' } }],
    surprise: { pick: 'side', most: 0, why: 'The surprising team takes a whole round alone (those who cannot be surprised act too); then the teams alternate.', source: '003 "Surprise"' },
  },
  kleptonomicon: {
    order: 'edge-save',
    summary: 'Foes are grouped by creature type; each PC rolls an Edge Save against each group and slots in after the first it fails.',
    source: '004 "Turn Order"',
    rolled: true,
    reroll: { setting: 'kleptonomicon.rerollEachRound', why: 'Each PC rolls its Edge Saves again against the same foe groups at the start of every round.' },
    groupBy: { modes: [], why: 'Foes are already grouped by creature type, and each group takes one place (004 "Turn Order").' },
    fields: [
      { key: 'edgeSave', label: 'Edge Save', type: 'int', min: -10, max: 10, defaultFor: { pc: 0, npc: 0 }, fromSheet: true },
      { key: 'creatureType', label: 'Creature type', type: 'text', only: 'npc', defaultFor: { pc: '', npc: '' } },
    ],
    // 004 has no surprise round: a Sneaky PC's Edge Saves get advantage instead.
    surprise: null,
  },
};

/** The ruleset's initiative, or null when its tables have no encounter tracker. */
export function initiativeOf(rulesetId: string): InitiativeMethod | null {
  return METHODS[rulesetId] ?? null;
}
