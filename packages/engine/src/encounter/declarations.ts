// Declarations of the encounter kernel's commands (ADR 13). The kernel is bound
// to a ruleset's rules, so its catalogue is too: the turn order decides the
// placement fields, the ruleset its conditions, pools and action kinds.
import { z } from 'zod';
import { catalogOf, combatantId, characterId, declareCommand, int, json, text, type Catalog } from '../core/catalog.js';
import { BANDS } from './sequencers/bands.js';
import type { EncounterRules } from './types.js';

const NAME = 80;
/** docs/vocabulary.md: one id for a creature; stored commands and old clients still send `id` or `combatant`. */
const RENAMED_ID = { id: 'characterId' } as const;
const RENAMED_COMBATANT = { combatant: 'characterId' } as const;
/** A creature in the encounter: the character it plays, or (unlinked) its combatant id. */
const creature = (description = 'the character (or, for a combatant without one, its combatant id)') => characterId(description);
const MAX_COMBATANTS = 200;
// Rule lookups (a condition, an action kind, a pool) stay text: the kernel names what is known in its own error.
const choice = (xs: readonly string[], description: string) => text(NAME, `${description}${xs.length > 0 ? `: ${xs.join(', ')}` : ''}`).min(1);

/**
 * Where a combatant goes in a turn order (what a sequencer's place() reads). The
 * kernel's shared suites send one combatant shape to every turn order, so each
 * field is accepted everywhere and checked by the order that reads it.
 */
const PLACEMENT = {
  band: z.enum(BANDS).meta({ description: 'initiative band (band turn orders)' }).optional(),
  score: int(-1000, 1000, 'initiative score (score turn orders)').optional(),
  team: text(NAME, 'team (team turn orders; default: its side)').min(1).optional(),
  group: int(0, 3, 'NPC group joining mid-encounter (Edge Save turn order)').optional(),
};

/** Turn-order setup at encounter start (each field read by the turn order it names). */
const PARAMS = z.strictObject({
  teamOrder: z.array(text(NAME).min(1)).min(1).max(MAX_COMBATANTS).meta({ description: 'team turn orders: initiating team, attacked team, then the others' }).optional(),
  groups: z.array(z.array(combatantId()).min(1).max(MAX_COMBATANTS)).max(4).meta({ description: 'Edge Save turn order: NPC groups (default: by creature type)' }).optional(),
  rerollEachRound: z.boolean().meta({ description: 'roll the turn order again at the start of every round, where the ruleset rolls it (default: the table setting)' }).optional(),
  groupInitiative: z.enum(['each', 'type', 'side']).meta({ description: 'where the ruleset allows it: foes of one type, or all foes, share one initiative and act together (default: each its own)' }).optional(),
});

/** A combatant's own numbers: plain values only (the command checks the count). */
const stats = () => z.record(z.string().max(64), z.union([z.number(), z.string().max(500), z.boolean(), z.null()])).meta({ description: "a combatant's own stats" });

const duration = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('rounds'), rounds: int(1, 1000) }),
  z.strictObject({ kind: z.literal('turnStart'), of: combatantId('whose turn start ends it') }),
  z.strictObject({ kind: z.literal('turnEnd'), of: combatantId('whose turn end ends it') }),
  z.strictObject({ kind: z.literal('saveEnds'), save: z.json().optional() }),
  z.strictObject({ kind: z.literal('encounterEnd') }),
  z.strictObject({ kind: z.literal('indefinite') }),
  z.strictObject({ kind: z.literal('rest'), rest: z.enum(['short', 'long']) }),
]);

/** The kernel's declarations by name, bound to a ruleset's rules (its handlers take their parsed payloads). */
export function encounterDeclarations(rules: EncounterRules) {
  const placement = z.strictObject(PLACEMENT);
  const combatant = z.strictObject({
    id: text(NAME, "the combatant id (default: its character's id, else a random one)").min(1).optional(),
    name: text(NAME).min(1).optional(),
    kind: z.enum(['pc', 'npc']),
    side: text(NAME, "its side (default: pcs or npcs)").min(1).optional(),
    // Rulesets keep structured stats on a combatant (a Kleptonomicon ability list): any JSON here.
    stats: z.record(z.string().max(64), json()).meta({ description: "a combatant's own stats" }).optional(),
    characterId: characterId('the character it plays, if any').nullable().optional(),
    visibility: z.enum(['hidden', 'existence', 'visible']).optional(),
    incapacitated: z.boolean().optional(),
    unsurprisable: z.boolean().optional(),
    ...PLACEMENT,
  });
  const conditions = rules.conditions.map((c) => c.id);
  const pools = Object.keys(rules.economy.pools);
  const kinds = Object.keys(rules.economy.payers);
  const id = z.strictObject({ characterId: creature() });
  return {
    start: declareCommand('encounter.start', {
      summary: 'Start an encounter with its combatants (turn order placed or rolled)',
      who: 'gm',
      input: z.strictObject({
        combatants: z.array(combatant).min(1).max(MAX_COMBATANTS),
        placements: z.record(z.string().max(NAME), placement).optional(),
        params: PARAMS.optional(),
        surprise: z.strictObject({ side: text(NAME, 'the side that ambushes'), actors: z.array(combatantId()).max(MAX_COMBATANTS).optional() }).nullable().optional(),
      }),
    }),
    end: declareCommand('encounter.end', { summary: 'End the encounter', who: 'gm', input: z.strictObject({}) }),
    add: declareCommand('encounter.add', { summary: 'Add a combatant to the running encounter', who: 'gm', input: z.strictObject({ combatant, placement: placement.optional() }) }),
    remove: declareCommand('encounter.remove', { summary: 'Remove a combatant from the encounter', who: 'gm', input: id, renamed: RENAMED_ID }),
    place: declareCommand('encounter.place', { summary: 'Move a combatant in the turn order', who: 'gm', input: z.strictObject({ characterId: creature(), placement: placement.optional() }), renamed: RENAMED_ID }),
    reorder: declareCommand('encounter.reorder', {
      summary: 'Move a combatant in the turn order: just before another (or last), where the turn order has a manual order',
      who: 'gm',
      input: z.strictObject({ characterId: creature('who moves'), beforeId: creature('who they now go before (null: last)').nullable() }),
      renamed: { id: 'characterId', before: 'beforeId' },
    }),
    setStats: declareCommand('encounter.setStats', { summary: "Set a combatant's own stats", who: 'gm', input: z.strictObject({ characterId: creature(), stats: stats() }), renamed: RENAMED_ID }),
    damage: declareCommand('encounter.damage', { summary: "Deal damage to a combatant (its own HP, or its character's), or to a character in no fight (ADR 104)", who: 'gm', input: z.strictObject({ characterId: creature(), amount: int(1, 100000, 'damage dealt') }), renamed: RENAMED_ID }),
    heal: declareCommand('encounter.heal', { summary: "Heal a combatant (its own HP, or its character's), or a character in no fight (ADR 104)", who: 'gm', input: z.strictObject({ characterId: creature(), amount: int(1, 100000, 'hit points healed') }), renamed: RENAMED_ID }),
    hide: declareCommand('encounter.hide', { summary: 'Hide a combatant from the players', who: 'gm', input: id, renamed: RENAMED_ID }),
    reveal: declareCommand('encounter.reveal', { summary: 'Show a combatant to the players', who: 'gm', input: id, renamed: RENAMED_ID }),
    obscure: declareCommand('encounter.obscure', { summary: 'Let players know a combatant exists, without its values', who: 'gm', input: id, renamed: RENAMED_ID }),
    link: declareCommand('encounter.link', {
      summary: 'Give a combatant without a character the character it plays (its sheet: an AC to attack it, its HP)',
      who: 'gm',
      input: z.strictObject({ characterId: creature('the combatant (its combatant id)'), playsId: characterId('the character it now plays') }),
    }),
    setIncapacitated: declareCommand('encounter.setIncapacitated', { summary: 'Mark a combatant unable (or able) to act', who: 'gm', input: z.strictObject({ characterId: creature(), value: z.boolean() }), renamed: RENAMED_ID }),
    choose: declareCommand('encounter.choose', {
      summary: 'Choose who acts next when the turn order asks',
      who: 'own-character',
      input: z.strictObject({ id: combatantId('who acts (default: the suggested one)').optional() }),
    }),
    endTurn: declareCommand('encounter.endTurn', {
      summary: 'End the current turn',
      who: 'own-character',
      // A screen names whose turn it ends, so a click meant for a turn that already ended (Guard ends its own) never ends the next one (ADR 53).
      input: z.strictObject({ id: combatantId('whose turn this ends: refused when the turn has moved on').optional() }),
      // Relative without its id; with it, the rules refuse a stale one (TURN_MOVED_ON), so a client may resend it (ADR 58).
      relative: true,
      namedBy: 'id',
    }),
    advance: declareCommand('encounter.advance', { summary: 'Move on to whoever acts next', who: 'gm', input: z.strictObject({}), relative: true }),
    delay: declareCommand('encounter.delay', { summary: 'Delay the current turn to a later place in the order', who: 'own-character', input: z.strictObject({ to: placement }) }),
    ready: declareCommand('encounter.ready', {
      summary: 'Ready an action with a trigger, ending the turn',
      who: 'own-character',
      input: z.strictObject({ action: choice(kinds, 'the action kind to ready'), trigger: text(200, 'what sets it off').min(1) }),
    }),
    triggerReady: declareCommand('encounter.triggerReady', {
      summary: "Take a combatant's readied action before someone else's turn",
      who: 'own-character',
      input: z.strictObject({ characterId: creature('who readied'), beforeId: creature('whose turn it interrupts') }),
      renamed: { id: 'characterId', before: 'beforeId' },
    }),
    spend: declareCommand('encounter.spend', {
      summary: 'Spend an action from a combatant\'s economy',
      who: 'own-character',
      input: z.strictObject({
        characterId: creature(),
        kind: choice(kinds, 'the action kind'),
        cost: int(1, 20).optional(),
        tag: text(NAME).optional(),
        limit: z.enum(['turn', 'round']).optional(),
        label: text(NAME).optional(),
        requires: text(NAME).optional(),
        forNextTurn: z.boolean().meta({ description: 'pay ahead from the next turn' }).optional(),
      }),
      renamed: RENAMED_COMBATANT,
    }),
    cancelExtended: declareCommand('encounter.cancelExtended', { summary: 'Cancel an extended action under way', who: 'own-character', input: z.strictObject({ characterId: creature() }), renamed: RENAMED_COMBATANT }),
    grant: declareCommand('encounter.grant', {
      summary: 'Grant a combatant extra actions from a pool',
      who: 'gm',
      input: z.strictObject({ characterId: creature(), pool: choice(pools, 'the action pool'), n: int(1, 10).optional() }),
      renamed: RENAMED_COMBATANT,
    }),
    escalationOffset: declareCommand('encounter.escalationOffset', { summary: 'Shift the escalation die', who: 'gm', input: z.strictObject({ offset: int(-6, 6) }) }),
    escalationSuppress: declareCommand('encounter.escalationSuppress', {
      summary: 'Stop (or restart) a combatant benefiting from the escalation die',
      who: 'gm',
      input: z.strictObject({ characterId: creature(), suppressed: z.boolean() }),
      renamed: RENAMED_ID,
    }),
    conditionApply: declareCommand('condition.apply', {
      summary: 'Apply a condition to a combatant for a duration',
      who: 'gm',
      input: z.strictObject({
        targetId: combatantId('who gets the condition'),
        condition: choice(conditions, 'the condition'),
        duration,
        sourceId: combatantId('who caused it').nullable().optional(),
        stacks: int(1, 99).optional(),
        params: z.json().optional(),
      }),
      // docs/vocabulary.md: ids name their role; stored commands and old clients still send target and source.
      renamed: { target: 'targetId', source: 'sourceId' },
    }),
    conditionRemove: declareCommand('condition.remove', { summary: 'Remove a condition instance', who: 'gm', input: z.strictObject({ conditionId: text(64, 'the condition instance id').min(1) }), renamed: { id: 'conditionId' } }),
    rest: declareCommand('encounter.rest', { summary: 'Take a short or long rest (time on the clock)', who: 'gm', input: z.strictObject({ rest: z.enum(['short', 'long']) }) }),
  };
}

export type EncounterDeclarations = ReturnType<typeof encounterDeclarations>;

export function encounterCatalog(rules: EncounterRules): Catalog {
  return catalogOf(...Object.values(encounterDeclarations(rules)));
}
