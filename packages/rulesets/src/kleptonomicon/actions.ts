// kleptonomicon.actions: what the acting creature may do now (004 "Using
// Abilities": two Beats a round, reset at the end of one's turn; "Movement":
// styles and a shared pool, Prone, Dash; "Interrupting Movement": the
// improvised maneuver, a Basic Attack at one extra Disadvantage that adds
// Slowed). Advantage is the net of Edge and Disadvantage dice, capped at 3.
import { asJson } from '@tablekeeper/engine/events';
import { BEATS_ECONOMY, controls, err, getEncounter, ok, own, type Json, type Query, type Result, type World } from '@tablekeeper/engine';
import { action, actionsQuery, actorOf, affordable, forbid, judge, othersInView, sideOf, standingIn, type Actor, type ActionOption, type TurnAction } from '../actions.js';
import { basicAttackOf, defenseOf, reachOf, reachWords } from './attack.js';
import { BASIC_ATTACKS, distances, distanceWords, type BasicAttack } from './distances.js';
import { abilitiesOf, sheet, stylesOf } from './context.js';
import { poolLeft, startTurnMovement, styleLeft } from './movement.js';
import { ABILITY_TIME_WORDS, abilityUse, type Ability } from './phases.js';
import { DEFAULT_FAIL_AT_OR_BELOW } from './roll.js';
import { K, numberSetting, setting, sixthDistance } from './settings.js';
import { getKlepto } from './state.js';

const yes = { allowed: true, reason: null };
/** A Beat to pay with, in the rule's words rather than the economy's. */
const beat = (a: Actor) => (affordable(a, 'ability').allowed ? yes : forbid(`${a.combatant.name} has no Beat left this round`));
// The form takes what the command takes; the dice count a net of at most 3 (rules README), so 4 sources count as 3, not a refusal (review 9).
const ADVANTAGE = { field: 'advantage', label: 'Advantage (− Disadvantage)', min: -10, max: 10, value: 0 } as const;
const MODIFIER = { field: 'modifier', label: 'Modifier', min: -50, max: 50, value: 0 } as const;

/** What a player's attack rolls with: the rules give no Advantage of their own (004); the GM grants any. */
export const PLAYER_ADVANTAGE = 'none (the GM grants Advantage or Disadvantage)';
const signed = (n: number): string => (n < 0 ? `−${-n}` : `+${n}`);

/** What an attack form knows of its reach (ADR 124): a Basic Attack's kind to start with, an ability, or the Opportunity Attack. */
type AttackReach = { readonly basic: BasicAttack } | { readonly ability: Ability } | { readonly opportunity: true };

const failScore = (world: World): number => numberSetting(world, K.failAtOrBelow) ?? DEFAULT_FAIL_AT_OR_BELOW;

/** The attack form (ADR 51): the GM keeps every box; a player's shows the sheet's numbers and no Defense box (ADR 56). */
function attackFormOf(a: Actor, targets: readonly ActionOption[], extra: { readonly [k: string]: Json }, modifier: number, damage: string, reach: AttackReach) {
  const id = a.combatant.id;
  const gm = a.viewer.role === 'gm';
  const sixth = sixthDistance(a.world);
  // ADR 124: a Basic Attack's kind is picked (the sheet's first), an ability's reach is shown; the target's distance is
  // said or not (no map: unsaid is unchecked). The Opportunity Attack's target has just left its Swinging Distance.
  const kinds = 'basic' in reach ? [reach.basic, ...BASIC_ATTACKS.filter((k) => k !== reach.basic)] : [];
  const choices = [
    ...(kinds.length === 0 ? [] : [{ field: 'basic', label: 'Basic Attack', options: kinds.map((k) => ({ value: k, label: `${k[0]!.toUpperCase()}${k.slice(1)}, reaches ${reachWords(reachOf(null, k, sixth))}` })) }]),
    ...('opportunity' in reach ? [] : [{ field: 'distance', label: 'How far away', options: [{ value: '', label: 'not said (no reach check)' }, ...distances(sixth).map((d) => ({ value: d.id, label: distanceWords(d) }))] }]),
  ];
  const reachText = 'ability' in reach ? [{ field: 'reach', label: 'Reach', value: reachWords(reachOf(reach.ability, 'melee', sixth)), max: 60, readOnly: true }] : [];
  const defenseBox = { field: 'defense', label: 'Defense', min: 0, max: 100, value: targets[0]?.sets?.['defense'] ?? failScore(a.world) + 1 };
  return {
    command: 'kleptonomicon.attack',
    fixed: { attackerId: id, ...extra },
    target: { field: 'targetId', multiple: false, options: targets },
    choices,
    numbers: gm ? [{ ...MODIFIER, value: modifier }, ADVANTAGE, defenseBox] : [],
    texts: gm
      ? [{ field: 'damage', label: 'Damage on a hit (dice, such as 1d6+1)', value: damage, max: 20 }, ...reachText]
      : [
          { field: 'modifier', label: 'Test modifier (from the sheet)', value: signed(modifier), max: 4, readOnly: true },
          { field: 'advantage', label: 'Advantage', value: extra['maneuver'] === true ? '1 Disadvantage (the improvised maneuver)' : PLAYER_ADVANTAGE, max: 60, readOnly: true },
          { field: 'damage', label: 'Damage on a hit (from the sheet)', value: damage === '' ? 'none on the sheet' : damage, max: 20, readOnly: true },
          ...reachText,
        ],
    odds: { query: 'kleptonomicon.attackOdds', args: { attackerId: id, ...extra }, pass: gm ? ['targetId', 'basic', 'distance', 'modifier', 'advantage', 'defense', 'damage'] : ['targetId', 'basic', 'distance'] },
  };
}

function build(a: Actor): Result<readonly TurnAction[]> {
  const st = getKlepto(a.world);
  const id = a.combatant.id;
  // Turn commands name a creature by its character (or, unlinked, by its own combatant id): docs/vocabulary.md.
  const who = a.combatant.characterId ?? id;
  const main = st.encounterPhase === 'main' ? yes : forbid('only in the Main Phase of an Encounter');
  const ownTurn = a.onTurn ? yes : forbid(`not ${a.combatant.name}'s turn`);
  const prone = st.prone.includes(id);
  // Before the first move of a turn the form offers what the turn will start with: the sheet's styles, else the
  // table's default ones (kleptonomicon.defaultMovementStyles), as the move command itself does.
  const tm = st.movement[id] ?? startTurnMovement(stylesOf(a.world, id), prone);
  const styles: ActionOption[] = tm.styles.map((s) => ({
    value: s.style,
    label: s.style[0]!.toUpperCase() + s.style.slice(1),
    note: `${styleLeft(tm, s.style)}u left`,
  }));
  const left = poolLeft(tm);
  const dashed = st.dashes[id];
  const dashes = dashed !== undefined && dashed.round === getEncounter(a.world).round ? dashed.count : 0;
  const athleticsStat = sheet(a.world, id)['athletics'];
  const athletics = typeof athleticsStat === 'number' && Number.isInteger(athleticsStat) ? athleticsStat : 0;
  const targets: ActionOption[] = othersInView(a).map((c) => {
    const d = defenseOf(a.world, c);
    const where = { side: sideOf(a, c), ...(standingIn(c) === 'down' ? { standing: 'down' as const } : {}) };
    return d === null ? { value: c.id, label: c.name, ...where } : { value: c.id, label: c.name, ...where, note: `Defense ${d}`, sets: { defense: d } };
  });
  const reach: ActionOption[] = othersInView(a).flatMap((c) => (c.side === a.combatant.side || standingIn(c) === 'down' ? [] : [{ value: c.id, label: c.name, side: 'foe' as const }])).slice(0, MAX_LEAVING);
  const out: TurnAction[] = [];
  if (a.combatant.characterId !== null) {
    out.push(
      action({
        id: 'test',
        label: 'Test',
        cost: 'free (the ability it serves may take a Beat)',
        command: 'kleptonomicon.test',
        fixed: { characterId: a.combatant.characterId },
        numbers: [MODIFIER, ADVANTAGE],
        odds: { query: 'kleptonomicon.testOdds', args: {}, pass: ['modifier', 'advantage'] },
      }),
    );
  }
  // The Basic Attack (ADR 51): a Test against the target's Defense, its damage on a hit; the maneuver is the same attack at one more Disadvantage that adds Slowed.
  const basic = basicAttackOf(a.world, id);
  // attackFormOf: the GM keeps every box. A player's form has no Defense box (the record decides, or the GM: a typed one
  // would be a dead box beside "the GM keeps it secret"), and shows the Test modifier, the Advantage and the
  // damage the rules give, none of which a player may rewrite (ADR 56; review 9: modifier and advantage).
  const attackForm = (extra: { readonly [k: string]: Json }, modifier: number, damage: string, reach: AttackReach = { basic: basic.kind }) => attackFormOf(a, targets, extra, modifier, damage, reach);
  const someone = targets.length === 0 ? forbid('nobody this view can see to attack') : yes;
  out.push(
    action({ id: 'attack', label: 'Basic Attack', cost: '1 Beat', ...attackForm({}, basic.modifier, basic.damage), ...judge(main, ownTurn, beat(a), someone) }),
    action({
      id: 'maneuver',
      label: 'Basic Attack with an improvised maneuver (adds Slowed)',
      cost: '1 Beat',
      ...attackForm({ maneuver: true }, basic.modifier, basic.damage),
      odds: { ...attackForm({ maneuver: true }, basic.modifier, basic.damage).odds, note: 'includes 1 Disadvantage for the improvised maneuver' },
      ...judge(main, ownTurn, beat(a), someone),
    }),
    action({
      id: 'move',
      label: 'Move',
      cost: `free (movement: ${left}u left this turn)`,
      command: 'kleptonomicon.move',
      fixed: { characterId: who },
      // 004 "Movement Reactions": whose Swinging Distance the move leaves (the foes this view sees, standing), none by
      // default; each with a Beat left gets an Opportunity Attack prompt.
      ...(reach.length === 0 ? {} : { target: { field: 'leaving', multiple: true, max: reach.length + 1, label: 'Leaving the reach of', aim: 'foes' as const, options: [{ value: '', label: 'nobody' }, ...reach], picked: [''] } }),
      choices: [{ field: 'style', label: 'Style', options: styles }],
      numbers: [{ field: 'units', label: 'Units', min: 1, max: Math.max(1, left), value: 1 }],
      ...judge(main, ownTurn, left <= 0 ? forbid('no movement left this turn') : yes),
    }),
    action({
      id: 'dash',
      label: dashes === 1 ? 'Dash again (Athletics Test)' : 'Dash',
      cost: setting(a.world, K.dashCostsBeat) === true ? '1 Beat' : 'free (the Dash ability)',
      command: 'kleptonomicon.dash',
      fixed: { characterId: who },
      // 004 "The Dash Ability": the second Dash of a round is a Test (pass: triple movement, fail: Slowed); its form shows the odds first (review 9).
      ...(dashes === 1
        ? {
            texts: [{ field: 'athletics', label: 'Athletics modifier (from the sheet)', value: `${athletics >= 0 ? '+' : ''}${athletics}`, max: 20, readOnly: true }],
            odds: { query: 'kleptonomicon.testOdds', args: { modifier: athletics, advantage: 0 }, pass: [], note: 'a pass triples movement, a failure leaves it and adds Slowed' },
          }
        : {
            // The first Dash is one tap with no form: it asks first, as it spends the ability (and a Beat where set) for the turn (issue 20).
            confirm: `${a.combatant.name} Dashes: every movement style doubles for this turn${setting(a.world, K.dashCostsBeat) === true ? ', for 1 Beat' : ''}; a second Dash this round needs an Athletics Test.`,
          }),
      ...judge(main, ownTurn, dashes >= 2 ? forbid('at most two Dashes per round') : setting(a.world, K.dashCostsBeat) === true ? beat(a) : yes),
    }),
    prone
      ? action({ id: 'stand', label: 'Stand up', cost: 'free, and 1u of movement', command: 'kleptonomicon.stand', fixed: { characterId: who }, ...judge(main, ownTurn) })
      : action({ id: 'prone', label: 'Drop prone', cost: 'free', command: 'kleptonomicon.dropProne', fixed: { characterId: who }, ...judge(main, ownTurn) }),
  );
  // Each ability on the sheet at what it costs now; the phase's refusal is the reason when it cannot be used.
  // An ability that attacks opens the attack's form (target, Test, odds, damage: ADR 51); the others are one tap.
  for (const ab of abilitiesOf(a.world, a.combatant.characterId, id)) {
    const use = abilityUse(ab, { phase: st.phase, encounterPhase: st.encounterPhase, ownTurn: a.onTurn });
    const cost = !use.ok ? ABILITY_TIME_WORDS[ab.time] : use.cost === 'beat' ? ABILITY_TIME_WORDS[ab.time] : use.cost === 'clock' ? 'free, but time passes' : 'free';
    const pays = use.ok && use.cost === 'beat' ? (affordable(a, ab.time === 'beatReaction' ? 'reaction' : 'ability').allowed ? yes : forbid(`${a.combatant.name} has no Beat left this round`)) : yes;
    const allowed = judge(use.ok ? yes : forbid(use.error.message), pays, ab.attack === true ? someone : yes);
    out.push(
      ab.attack === true
        ? action({ id: `ability:${ab.id}`, label: ab.name, cost: `${cost}${effectsOf(ab)}`, ...attackForm({ abilityId: ab.id }, ab.modifier ?? 0, ab.damage ?? '', { ability: ab }), ...allowed })
        : action({ id: `ability:${ab.id}`, label: ab.name, cost, command: 'kleptonomicon.useAbility', fixed: { combatantId: id, abilityId: ab.id }, ...allowed }),
    );
  }
  // Rules the screen could only reach through "Any command" (GM review, issue 20): an improvised free action
  // for the actor, and for the GM a granted movement style and an interruption of the actor's movement (004 "Movement").
  out.push(
    action({
      id: 'freeAction',
      label: 'Free action',
      cost: 'free (a few improvised ones a turn; the GM may allow more)',
      command: 'kleptonomicon.freeAction',
      fixed: { characterId: who },
      texts: [{ field: 'description', label: 'What they do', value: '', max: 200 }],
      ...judge(main, ownTurn),
    }),
  );
  if (a.viewer.role === 'gm') {
    out.push(
      action({
        id: 'grantStyle',
        label: 'Grant a movement style',
        cost: 'free (the GM grants it for this turn)',
        command: 'kleptonomicon.grantStyle',
        fixed: { characterId: who },
        choices: [
          {
            field: 'variant',
            label: 'Speed',
            options: [
              { value: 'half', label: 'Half the base units' },
              { value: 'normal', label: 'The base units' },
              { value: 'double', label: 'Double the base units' },
            ],
          },
        ],
        texts: [{ field: 'style', label: 'Style (climb, swim...)', value: 'climb', max: 32, suggestions: ['walk', 'jump', 'climb', 'swim', 'fly', 'levitate'] }],
        ...judge(main, ownTurn),
      }),
      action({
        id: 'interrupt',
        label: `Interrupt ${a.combatant.name}'s movement`,
        cost: 'an ability that interrupts movement',
        command: 'kleptonomicon.interrupt',
        fixed: { characterId: who },
        flags: [{ field: 'heavy', label: 'Heavy interruption', value: false }],
        ...judge(main),
      }),
    );
  }
  return ok(out);
}

/** What an attack ability does on a hit beyond damage, for its cost line. */
function effectsOf(ab: Ability): string {
  const parts = [...(ab.slowed !== undefined ? [`${ab.slowed} Slowed`] : []), ...(ab.interrupts === true ? ['interrupts movement'] : [])];
  return parts.length === 0 ? '' : `; a hit: ${parts.join(', ')}`;
}

export const kleptoActions = actionsQuery(BEATS_ECONOMY, build);

/** As many as kleptonomicon.move's `leaving` takes. */
const MAX_LEAVING = 20;

/**
 * kleptonomicon.reactions: the Opportunity Attack a creature may make now (004 "Movement Reactions"): a Basic
 * Attack on the one who left its Swinging Distance, paid with a Beat, until that one's turn ends.
 */
export const kleptoReactions: Query = (world, args, viewer) => {
  const id = args['characterId'];
  if (typeof id !== 'string') return err('INVALID_VALUE', 'characterId must be a combatant id', 'characterId');
  const got = actorOf(world, viewer, id, BEATS_ECONOMY);
  if (!got.ok) return got;
  const a = got.value;
  const moverId = own(getKlepto(world).opportunities ?? {}, a.combatant.id);
  const mover = moverId === undefined ? undefined : own(getEncounter(world).combatants, moverId);
  const prompts = [];
  if (mover !== undefined) {
    const basic = basicAttackOf(world, a.combatant.id);
    const d = defenseOf(world, mover);
    const target: ActionOption = d === null ? { value: mover.id, label: mover.name, side: sideOf(a, mover) } : { value: mover.id, label: mover.name, side: sideOf(a, mover), note: `Defense ${d}`, sets: { defense: d } };
    const form = attackFormOf(a, [target], { opportunity: true }, basic.modifier, basic.damage, { opportunity: true });
    const take = action({ id: 'opportunity', label: `Opportunity Attack on ${mover.name}`, cost: '1 Beat (a reaction)', ...form, ...judge(affordable(a, 'reaction').allowed ? yes : forbid(`${a.combatant.name} has no Beat left this round`)) });
    prompts.push({ id: `opportunity:${mover.id}`, kind: 'opportunity', text: `${mover.name} left ${a.combatant.name}'s Swinging Distance: ${a.combatant.name} may make an Opportunity Attack until ${mover.name}'s turn ends.`, actions: [take] });
  }
  return ok(asJson({ characterId: a.combatant.id, name: a.combatant.name, prompts }));
};

/** Skills the Test form suggests: 004 names only Athletics (the Dash); the GM names any other. */
export const SUGGESTED_SKILLS: readonly string[] = ['Athletics'];

/**
 * kleptonomicon.freeplayActions: what a character may do outside an Encounter
 * (004 "Freeplay": play goes around the table, no Beats; "Improvising": say what
 * you try, the GM may ask for a Test of a Skill), and the player's part of the
 * Opening and Closing Credits: an introduction and a resolution scene (issue 20).
 * The same answer as the turn's actions, so the screen draws it with the same form and odds.
 */
export const kleptoFreeplayActions: Query = (world, args, viewer) => {
  const id = args['characterId'];
  if (typeof id !== 'string') return err('INVALID_VALUE', 'characterId must be a character id', 'characterId');
  const ch = own(world.characters, id);
  if (ch === undefined) return err('NOT_FOUND', 'no such character', 'characterId');
  const st = getKlepto(world);
  const mine = controls(world, viewer, id) ? yes : forbid(`${ch.name} is not yours to play`);
  // In a running Encounter the turn's actions hold the Test (its Beats and turn order apply).
  const outside = st.phase === 'encounter' && st.encounterPhase !== 'reward' ? forbid('in an Encounter, the Test is among the turn\'s actions') : yes;
  const actions: TurnAction[] = [
    action({
      id: 'test',
      label: 'Test',
      cost: 'free (the GM says when a Test is needed)',
      command: 'kleptonomicon.test',
      fixed: { characterId: id },
      texts: [{ field: 'skill', label: 'Skill', value: '', max: 500, suggestions: SUGGESTED_SKILLS }],
      numbers: [MODIFIER, ADVANTAGE],
      odds: { query: 'kleptonomicon.testOdds', args: {}, pass: ['modifier', 'advantage'] },
      ...judge(mine, outside),
    }),
    action({
      id: 'improvise',
      label: 'Try something (the GM rules)',
      cost: 'free',
      command: 'kleptonomicon.improvise',
      fixed: { characterId: id },
      texts: [{ field: 'description', label: 'What they try', value: '', max: 500 }],
      ...judge(mine, st.phase === 'between' ? forbid('no Episode is running: the GM starts one') : yes),
    }),
    // 004 "Opening Credits": each player (re)introduces their character, with a short clip if the GM asks.
    action({
      id: 'introduce',
      label: st.opening.introduced.includes(id) ? `Introduce ${ch.name} again` : `Introduce ${ch.name}`,
      cost: 'free (the Opening Credits)',
      command: 'kleptonomicon.introduce',
      fixed: { characterId: id },
      texts: [{ field: 'clip', label: 'A five-second clip (may be empty)', value: '', max: 500 }],
      ...judge(mine, st.phase === 'opening' ? yes : forbid('only in the Opening Credits')),
    }),
    // 004 "Closing Credits": a player may play a resolution scene for their character before the resets.
    action({
      id: 'resolutionScene',
      label: 'Resolution scene',
      cost: 'free (the Closing Credits)',
      command: 'kleptonomicon.resolutionScene',
      fixed: { characterId: id },
      texts: [{ field: 'text', label: 'The scene', value: '', max: 500 }],
      ...judge(mine, st.phase === 'closing' ? yes : forbid('only in the Closing Credits')),
    }),
  ];
  return ok(asJson({ combatantId: id, name: ch.name, onTurn: true, actions }));
};
