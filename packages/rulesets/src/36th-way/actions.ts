// 36th-way.actions: what the acting creature may do now (002 "Action Types": a
// standard, a move and a quick action on one's turn; "Positioning": engaged,
// nearby, far, one move action per step; "Disengaging": a move action). Each
// target carries its range from the actor, so the screen can say who a
// basic melee attack reaches before anyone rolls.
import { BANDS, BANDS_ECONOMY, CUSTOM_CONDITION_PREFIX, getEncounter, ok, own, type EncounterKit, type Result, type Viewer, type World } from '@tablekeeper/engine';
import { action, actionsQuery, affordable, forbid, judge, othersInView, standingIn, type Actor, type ActionOption, type TurnAction } from '../actions.js';
import { cannotUse, type AbilityEntry } from './abilities.js';
import { abilityReaches, reachAdvice, reachLabel } from './combat.js';
import { sustainRefusal } from './checks.js';
import { controls, deathSaveRefusal, escalationOf, hasCondition } from './context.js';
import { areEnemies, engagedEnemies, inReach, isFree, rangeBetween } from './positioning.js';
import { getTsw, type Range, type Sheet } from './state.js';
import { statusOf } from './health.js';

const yes = { allowed: true, reason: null };

function sheetFor(a: Actor, id: string, characterId: string | null): Sheet | undefined {
  const sheets = getTsw(a.world).sheets;
  return own(sheets, id) ?? (characterId === null ? undefined : Object.values(sheets).find((s) => s.characterId === characterId));
}

/** What an ability's use costs, in the words of its entry line (action, frequency, power). */
function abilityCost(x: AbilityEntry): string {
  const f = x.frequency.kind === 'recharge' ? `recharge ${x.frequency.target}+` : x.frequency.kind;
  return [`1 ${x.action} action`, f, ...(x.power !== null ? [`${x.power.amount} ${x.power.resource}`] : []), ...(x.provokes ? ['provokes'] : [])].join(', ');
}

/** Another creature in view, with its range from the actor. */
interface Other {
  readonly sheet: Sheet;
  readonly range: Range;
  /** The tracker row's own state: a phone holds no foe's HP (ADR 33), the row still says it is out. */
  readonly rowDown: boolean;
}

function build(kit: EncounterKit, a: Actor): Result<readonly TurnAction[]> {
  const me = sheetFor(a, a.combatant.id, a.combatant.characterId);
  if (me === undefined) return ok([]);
  const st = getTsw(a.world);
  const others = othersInView(a).flatMap((c) => {
    const s = sheetFor(a, c.id, c.characterId);
    return s === undefined || s.id === me.id ? [] : [{ sheet: s, range: rangeBetween(st, me.id, s.id), rowDown: standingIn(c) === 'down' }];
  });
  // Only an enemy in reach makes an attack worth offering (review 9: an ally nearby left a foe's Spear "allowed",
  // and the roll was then refused with no reason on screen); the reason says what to do.
  const opponents = others.filter((o) => areEnemies(a.world, me.id, o.sheet.id));
  const reachable = (stance: 'melee' | 'ranged') => opponents.filter((o) => (stance === 'melee' ? o.range === 'engaged' : inReach(o.range, me.rangedReach)));
  // Each target with its side and standing (ADR 52); an attack's picker lists the enemies engaged with the
  // attacker first, then the others in reach, and marks the ones the roll would refuse (review 6).
  const option = (o: Other): ActionOption => {
    const status = statusOf(o.sheet);
    const standing = status === 'dead' ? 'dead' : status === 'dying' || status === 'unconscious' || o.rowDown ? 'down' : 'up';
    // A fallen creature says so beside its name, as Daggerheart and OSR do (review 13 #7: a dead goblin was listed unmarked).
    return { value: o.sheet.id, label: o.sheet.name, note: standing === 'up' ? o.range : `${standing}, ${o.range}`, side: areEnemies(a.world, me.id, o.sheet.id) ? 'foe' : 'ally', ...(standing === 'up' ? {} : { standing }) };
  };
  const targetOptions: ActionOption[] = others.map(option);
  const attackTargets = (reaches: (o: Other) => boolean, what: string, advice = 'move to engage first'): ActionOption[] => {
    const rank = (o: Other) => (!areEnemies(a.world, me.id, o.sheet.id) ? 3 : !reaches(o) ? 2 : o.range === 'engaged' ? 0 : 1);
    return [...others].sort((x, y) => rank(x) - rank(y)).map((o) => (reaches(o) ? option(o) : { ...option(o), refused: `out of ${what}'s reach${o.range === 'engaged' ? '' : `: ${advice}`}` }));
  };
  // 002 "Basic Attacks": a basic attack is made in the current stance (the other is refused, WRONG_STANCE): its reach
  // is that stance's (review 9's night: a melee Kira was offered Attack on a nearby orc, and the roll was refused).
  const melee = me.stance === 'melee';
  const basicTargets = attackTargets((o) => (melee ? o.range === 'engaged' : inReach(o.range, me.rangedReach)), `a basic ${me.stance} attack`, reachAdvice(melee ? 'basic-melee' : 'basic-ranged', me).replace(' it ', ' '));
  // Only the stance's own basic attack is offered; the other takes a stance switch first (a quick action, offered below).
  const stances: ActionOption[] = [{ value: me.stance, label: `Basic ${me.stance} attack`, note: melee ? 'an engaged target' : `up to ${me.rangedReach}` }];
  // 002 "Dying and Death": a dying PC's turn is its death save; stabilized, it still cannot act.
  const unable = me.dead || me.outOfFight || me.unconscious ? forbid(`${me.name} cannot act`) : me.dying !== null ? forbid(`${me.name} is dying: a death save is all they may do`) : yes;
  const stuck = hasCondition(a.world, me.id, 'stuck') ? forbid(`${me.name} is Stuck and cannot move`) : yes;
  const enemies = engagedEnemies(a.world, me.id);
  const attack = action({
    id: 'attack',
    label: 'Attack',
    cost: '1 standard action',
    command: '36th-way.attack',
    fixed: { attackerId: me.id },
    target: { field: 'targetIds', multiple: true, options: basicTargets },
    choices: [
      // A basic attack goes against AC (002 "Basic Melee/Ranged Attack"): no defence to pick.
      { field: 'basic', label: 'Attack', options: stances },
    ],
    numbers: [
      { field: 'advantage', label: 'Advantage (±)', min: -6, max: 6, value: 0 },
      { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
    ],
    odds: { query: '36th-way.attackOdds', args: { attackerId: me.id }, pass: ['targetIds', 'basic', 'advantage', 'bonus'] },
    ...judge(
      unable,
      affordable(a, 'standard'),
      reachable(me.stance).length > 0
        ? yes
        : forbid(
            melee
              ? `no enemy engaged with ${me.name} — move to engage one first${reachable('ranged').length > 0 ? ', or switch to the ranged stance (a quick action)' : ''}`
              : `no enemy within the ranged stance's reach (${me.rangedReach}) — move nearer first${reachable('melee').length > 0 ? ', or switch to the melee stance (a quick action)' : ''}`,
          ),
    ),
  });
  const move = action({
    id: 'move',
    label: 'Move',
    cost: '1 move action per step (far, nearby, engaged)',
    command: '36th-way.move',
    fixed: { who: me.id },
    target: { field: 'to', multiple: false, options: targetOptions },
    choices: [{ field: 'range', label: 'To be', options: [{ value: 'engaged', label: 'Engaged' }, { value: 'nearby', label: 'Nearby' }, { value: 'far', label: 'Far' }] }],
    ...judge(unable, stuck, affordable(a, 'move'), others.length === 0 ? forbid('nobody to move toward') : yes),
  });
  // 002 "Disengaging": from one enemy or several at once (+1 each past the first), with the odds of the pick (review 9).
  const disengage = action({
    id: 'disengage',
    label: 'Disengage',
    cost: '1 move action (a check: 11, +1 per enemy past the first)',
    command: '36th-way.disengage',
    fixed: { characterId: me.id },
    target: {
      field: 'from',
      multiple: true,
      max: Math.max(1, enemies.length),
      label: 'From',
      options: others.filter((o) => enemies.includes(o.sheet.id)).map(option),
      picked: others.filter((o) => enemies.includes(o.sheet.id)).map((o) => o.sheet.id),
    },
    numbers: [{ field: 'advantage', label: 'Advantage (±)', min: -6, max: 6, value: 0 }],
    odds: { query: '36th-way.disengageOdds', args: { characterId: me.id, from: [] }, pass: ['from', 'advantage'], together: true },
    ...judge(unable, stuck, enemies.length === 0 ? forbid(`${me.name} is not engaged with an enemy`) : yes, affordable(a, 'move')),
  });
  // 002 "Dying and Death": the dying PC's own roll on its turn (the GM may roll it for an absent player).
  const saveWhy = me.dying === null ? null : deathSaveRefusal(a.world, me);
  const deathSave = action({
    id: 'deathSave',
    label: me.dying?.lastGasp != null ? 'Roll a Last Gasp save' : 'Roll a death save',
    cost: 'the whole turn (a crit: heal and act at once)',
    command: '36th-way.deathSave',
    fixed: { characterId: me.id },
    odds: { query: '36th-way.deathSaveOdds', args: { characterId: me.id }, pass: [] },
    ...judge(saveWhy === null ? yes : forbid(saveWhy)),
  });
  if (me.dying !== null && me.kind === 'pc' && !me.dead) {
    // Nothing else is offered to a dying PC (review 9: Rally, stance and delays were); the list says why.
    return ok([deathSave, attack, move, disengage]);
  }
  const other = me.stance === 'ranged' ? 'melee' : 'ranged';
  const stance = action({ id: 'stance', label: `Switch to ${other} stance`, cost: '1 quick action', command: '36th-way.stance', fixed: { who: me.id, stance: other }, ...judge(unable, affordable(a, 'quick')) });
  // Each attack ability on the sheet, against the targets its reach allows, with the odds of its own attack.
  const escalation = escalationOf(kit, a.world, me);
  const hampered = hasCondition(a.world, me.id, 'hampered');
  const abilities = Object.values(me.abilities).flatMap((x) => {
    const atk = x.attack;
    if (atk === undefined) return [];
    const why = cannotUse(x, { escalation, use: me.uses[x.id], resources: me.resources, hampered });
    const inRange = opponents.filter((o) => abilityReaches(atk.reach, me, o.range));
    return [
      action({
        id: `ability:${x.id}`,
        label: x.name,
        cost: abilityCost(x),
        command: '36th-way.attack',
        fixed: { attackerId: me.id, ability: x.id },
        // As many targets as the entry names (002 "Ability Entries"), one roll and one odds line each.
        target: { field: 'targetIds', multiple: true, max: atk.targets, options: attackTargets((o) => abilityReaches(atk.reach, me, o.range), x.name, reachAdvice(atk.reach, me).replace(' it ', ' ')) },
        numbers: [
          { field: 'advantage', label: 'Advantage (±)', min: -6, max: 6, value: 0 },
          { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
        ],
        odds: { query: '36th-way.attackOdds', args: { attackerId: me.id, ability: x.id }, pass: ['targetIds', 'advantage', 'bonus'] },
        ...judge(unable, why === null ? yes : forbid(why.message), affordable(a, x.action), inRange.length === 0 ? forbid(`no enemy within ${x.name}'s reach (${reachLabel(atk.reach, me)}) — ${reachAdvice(atk.reach, me).replace('engage it', 'engage one')}`) : yes),
      }),
    ];
  });
  // An ability that makes no attack (a ward, a class's own trick) is used as its entry says: one tap, no roll (issue 20).
  const grabbed = hasCondition(a.world, me.id, 'grabbed');
  const plain = Object.values(me.abilities).flatMap((x) => {
    if (x.attack !== undefined) return [];
    const why = cannotUse(x, { escalation, use: me.uses[x.id], resources: me.resources, hampered });
    const held = grabbed && x.types.includes('ranged') ? forbid(`${me.name} is Grabbed and cannot use ranged attacks or spells`) : yes;
    return [action({ id: `ability:${x.id}`, label: x.name, cost: abilityCost(x), command: '36th-way.useAbility', fixed: { characterId: me.id, ability: x.id }, ...judge(unable, why === null ? yes : forbid(why.message), held, affordable(a, x.action)) })];
  });
  // 002 "Ability Entries", Sustain X: the roll, with the same kind of action that started it, keeps it past this turn.
  const sustains = Object.values(me.abilities).flatMap((x) => {
    if (x.sustain === null) return [];
    const why = sustainRefusal(a.world, me, x.id);
    return [
      action({
        id: `sustain:${x.id}`,
        label: `Sustain ${x.name}`,
        cost: `1 ${x.action} action (${x.sustain}+ on 3d6 keeps it going)`,
        command: '36th-way.sustain',
        fixed: { characterId: me.id, ability: x.id },
        odds: { query: '36th-way.sustainOdds', args: { characterId: me.id, ability: x.id }, pass: [] },
        ...judge(unable, why === null ? yes : forbid(why.message), affordable(a, x.action)),
      }),
    ];
  });
  // 002 "Disengaging and Popping Off": an ability that pops the user free skips the check; the player says which enemies.
  const engagedOptions = others.filter((o) => enemies.includes(o.sheet.id)).map(option);
  const popOff = action({
    id: 'popOff',
    label: 'Pop free',
    cost: 'no disengage check: only when an ability or effect says so',
    command: '36th-way.popOff',
    fixed: { characterId: me.id },
    target: { field: 'from', multiple: true, max: Math.max(1, enemies.length), label: 'From', options: engagedOptions, picked: engagedOptions.map((o) => o.value) },
    // On the creature's own turn, as the ability that pops it free is used (review 9: off turn, the list keeps to answers).
    ...judge(unable, stuck, enemies.length === 0 ? forbid(`${me.name} is not engaged with an enemy`) : yes, a.onTurn ? yes : forbid('only on your own turn (as the ability that pops you free)')),
  });
  // A foe whose stat block gives its attack ("+7 vs AC, 2d6") attacks with that, never the PCs' level-derived basic attack (ADR 40).
  const fromBlock = me.kind === 'npc' && Object.values(me.abilities).some((x) => x.attack?.wholeBonus === true);
  return ok([...(fromBlock ? [] : [attack]), ...abilities, ...plain, ...sustains, move, disengage, popOff, stance, ...beyondAttack(a, me, others, unable)]);
}

const READY_KINDS = [
  { value: 'standard', label: 'Standard action' },
  { value: 'move', label: 'Move action' },
  { value: 'quick', label: 'Quick action' },
];

/**
 * The rules the screen could only reach through "Any command" (a GM review
 * finding): Rally, Stabilize, Intercept, Delay and Ready (002 "Rally",
 * "Intercept", "Delaying your Turn", "Readying an Action"), each at its cost.
 */
function beyondAttack(a: Actor, me: Sheet, others: readonly { sheet: Sheet; range: string }[], unable: { allowed: boolean; reason: string | null }): TurnAction[] {
  const st = getTsw(a.world);
  const enc = getEncounter(a.world);
  // A save comes with the heal: against one of the rallying creature's own effects, when it has any.
  const effects = Object.values(enc.conditions).filter((c) => c.target === me.id);
  const rally = action({
    id: 'rally',
    label: 'Rally',
    cost: me.recoveries > 0 ? `1 standard action, 1 recovery (${me.recoveries} left)` : '1 standard action (no recoveries left: the healing is halved)',
    command: '36th-way.rally',
    fixed: { characterId: me.id },
    choices: effects.length === 0 ? [] : [{ field: 'against', label: 'Save against', options: effects.map((c) => ({ value: c.id, label: c.defId })) }],
    ...judge(unable, affordable(a, 'standard')),
  });
  const dying = others.filter((o) => o.sheet.dying !== null && !areEnemies(a.world, me.id, o.sheet.id));
  const stabilize = action({
    id: 'stabilize',
    label: 'Stabilize',
    cost: '1 standard action',
    command: '36th-way.stabilize',
    fixed: { helperId: me.id },
    target: { field: 'targetId', multiple: false, options: dying.map((o) => ({ value: o.sheet.id, label: o.sheet.name, note: 'dying' })) },
    ...judge(unable, dying.length === 0 ? forbid('no ally in view is dying') : yes, affordable(a, 'standard')),
  });
  // Intercept answers the last move to engage: offered to a Free creature while an enemy is closing on one of its allies.
  const last = st.lastEngage;
  const mover = last === null ? undefined : others.find((o) => o.sheet.id === last.mover);
  const ally = last === null ? undefined : others.find((o) => o.sheet.id === last.target);
  const intercept = action({
    id: 'intercept',
    label: mover === undefined ? 'Intercept' : `Intercept ${mover.sheet.name}`,
    cost: 'free action',
    command: '36th-way.intercept',
    fixed: { interceptorId: me.id, ...(mover === undefined ? {} : { moverId: mover.sheet.id }) },
    ...judge(
      unable,
      last === null || mover === undefined || ally === undefined || last.intercept || !areEnemies(a.world, me.id, mover.sheet.id) || areEnemies(a.world, me.id, ally.sheet.id)
        ? forbid('no enemy has just moved to engage one of your allies')
        : yes,
      isFree(a.world, me.id) ? yes : forbid(`${me.name} is engaged with an enemy`),
      ally !== undefined && ally.range === 'far' ? forbid(`${me.name} is too far from ${ally.sheet.name}`) : yes,
    ),
  });
  const band = (a.combatant.placement as { band?: unknown } | null | undefined)?.band;
  const at = BANDS.findIndex((b) => b === band);
  const later = at < 0 ? [] : BANDS.slice(at + 1);
  const delays = later.map((b) =>
    action({
      id: `delay:${b}`,
      label: `Delay to the ${b.replace('-', ' ')} band`,
      cost: 'the rest of this turn; the band stays for the encounter',
      command: 'encounter.delay',
      fixed: { to: { band: b } },
      ...judge(unable, a.onTurn ? yes : forbid('only on your own turn')),
    }),
  );
  const ready = action({
    id: 'ready',
    label: 'Ready an action',
    cost: 'the readied action; your turn ends',
    command: 'encounter.ready',
    fixed: {},
    choices: [{ field: 'action', label: 'Ready', options: READY_KINDS }],
    texts: [{ field: 'trigger', label: 'Trigger', value: '', max: 200 }],
    ...judge(unable, a.onTurn ? yes : forbid('only on your own turn')),
  });
  // 002 "Fight in Spirit": only a PC out of the fight for good (petrified, separated: the GM marks it), on its own turn,
  // gives one ally a boon for a round, with a reason each time. A dying PC is not out for good: it rolls death saves.
  const allies = others.filter((o) => !areEnemies(a.world, me.id, o.sheet.id) && !o.sheet.dead);
  const spirit = action({
    id: 'fightInSpirit',
    label: 'Fight in Spirit',
    cost: 'your turn (the boon lasts until your next turn starts)',
    command: '36th-way.fightInSpirit',
    fixed: { characterId: me.id },
    target: { field: 'allyId', multiple: false, options: allies.map((o) => ({ value: o.sheet.id, label: o.sheet.name })) },
    choices: [{ field: 'boon', label: 'Boon', options: SPIRIT_BOONS }],
    texts: [{ field: 'reason', label: 'How (a reason, every round)', value: '', max: 200 }],
    ...judge(
      me.outOfFight ? yes : forbid(`only for a PC out of the fight for good (petrified, separated): the GM marks ${me.name} so`),
      a.onTurn ? yes : forbid('only on your own turn'),
      allies.length === 0 ? forbid('no ally in view') : yes,
    ),
  });
  // Skill checks and Dicey Moves (002 "Dicey Moves": a skill check as a move action) against the GM's Difficulty,
  // with the odds the commands roll; 11 is only a starting value (the text leaves it to the environment).
  const difficulty = { field: 'difficulty', label: 'Difficulty (the GM sets it)', min: 3, max: 60, value: 11 };
  const bonus = { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 };
  // In a fight's list, on the creature's own turn; the GM's Skill checks panel calls for one at any time.
  const check = skillCheck(me, judge(unable, a.onTurn ? yes : forbid(`only on ${me.name}'s own turn here (the GM may call for one at any time)`)));
  const dicey = action({
    id: 'diceyMove',
    label: 'Dicey move',
    cost: '1 move action (a skill check)',
    command: '36th-way.diceyMove',
    fixed: { characterId: me.id },
    numbers: [difficulty, bonus],
    odds: { query: '36th-way.checkOdds', args: { characterId: me.id }, pass: ['difficulty', 'bonus'] },
    ...judge(unable, affordable(a, 'move')),
  });
  // 002 "Last Gasp Saves": an ally grants one with a standard action; its failure does not count against the four.
  const gasping = others.filter((o) => o.sheet.dying?.lastGasp != null && !areEnemies(a.world, me.id, o.sheet.id));
  const grant = action({
    id: 'grantSave',
    label: 'Grant a Last Gasp save',
    cost: '1 standard action (a failure does not count)',
    command: '36th-way.grantSave',
    fixed: { helperId: me.id },
    target: { field: 'targetId', multiple: false, options: gasping.map((o) => ({ value: o.sheet.id, label: o.sheet.name, note: `Last Gasp saves against ${o.sheet.dying!.lastGasp!.effect}` })) },
    odds: { query: '36th-way.grantSaveOdds', args: { helperId: me.id, targetId: '' }, pass: ['targetId'] },
    ...judge(unable, gasping.length === 0 ? forbid('no ally in view is making Last Gasp saves') : yes, affordable(a, 'standard')),
  });
  // Rally heals with a recovery, which only PCs keep (002 "Recoveries"; NPCs heal by level): a foe is not offered it.
  const out: TurnAction[] = [...(me.kind === 'pc' ? [rally, check] : []), dicey, stabilize, grant, intercept, ...delays, ready, ...(me.kind === 'pc' ? [spirit] : [])];
  if (a.viewer.role === 'gm') {
    // The GM's calls: an effect that may kill or disable a PC outright starts its Last Gasp saves (002 "Last Gasp
    // Saves"); the party fleeing is a Campaign Loss and ends the fight (002 "Flee").
    if (me.kind === 'pc' && !me.dead && me.dying === null) {
      out.push(
        action({
          id: 'lastGasp',
          label: `${me.name} starts Last Gasp saves`,
          cost: 'the GM decides (an effect that may kill or disable outright)',
          command: '36th-way.lastGasp',
          fixed: { characterId: me.id },
          texts: [{ field: 'effect', label: 'Against (the effect)', value: '', max: 200 }],
        }),
      );
    }
    // On a PC's turn only: a foe does not flee with the party (review 12 #11).
    // One tap would spend a Campaign Loss: the button asks once, naming it (review 11).
    const confirm = 'The party flees: it takes a Campaign Loss and the fight ends now (Undo takes it back).';
    if (me.kind === 'pc') out.push(action({ id: 'flee', label: 'The party flees', cost: 'a Campaign Loss; the fight ends', command: '36th-way.flee', fixed: {}, confirm, ...judge(enc.active ? yes : forbid('no fight to flee from')) }));
  }
  // The GM marks a PC out of the fight for good (or back in); the sheet's flag is the GM's, so only the GM's list has it.
  // Offered only for a PC something already holds out (ADR 74): Helpless (002's petrified is a Helpless that never
  // ends) or a GM's own condition ("Petrified", "Separated"), never for a PC fit to fight (GM review, issue 20).
  const heldOut = hasCondition(a.world, me.id, 'helpless') || Object.values(getEncounter(a.world).conditions).some((c) => c.target === me.id && c.defId.startsWith(CUSTOM_CONDITION_PREFIX));
  if (a.viewer.role === 'gm' && me.kind === 'pc' && !me.dead && (me.outOfFight || heldOut)) {
    out.push(
      action({
        id: 'outOfFight',
        label: me.outOfFight ? `${me.name} is back in the fight` : `${me.name} is out of the fight for good`,
        cost: 'the GM decides (petrified, separated from the party)',
        command: '36th-way.outOfFight',
        fixed: { characterId: me.id, value: !me.outOfFight },
      }),
    );
  }
  return out;
}

/** A skill check against the GM's Difficulty (3d6 + bonus), with its odds: in a fight's list and in the GM's checks. */
function skillCheck(me: Sheet, unable: { allowed: boolean; reason: string | null }): TurnAction {
  return action({
    id: 'check',
    label: 'Skill check',
    cost: 'no action (when the GM calls for one)',
    command: '36th-way.check',
    fixed: { characterId: me.id },
    numbers: [
      { field: 'difficulty', label: 'Difficulty (the GM sets it)', min: 3, max: 60, value: 11 },
      { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
      { field: 'advantage', label: 'Advantage (±)', min: -6, max: 6, value: 0 },
    ],
    flags: [{ field: 'sneak', label: 'Sneaking (Invisible gives Advantage)', value: false }],
    odds: { query: '36th-way.checkOdds', args: { characterId: me.id }, pass: ['difficulty', 'bonus', 'advantage', 'sneak'] },
    ...judge(unable),
  });
}

/**
 * 36th-way.checks: a skill check for each PC the viewer plays (the GM: every PC), in a fight or out of one
 * (review 11: checks had a command and no control). Whoever cannot act is listed with the reason.
 */
export function checksQuery(world: World, viewer: Viewer): { readonly actions: readonly (TurnAction & { readonly name: string })[] } {
  const pcs = Object.values(getTsw(world).sheets).filter((s) => s.kind === 'pc' && controls(world, viewer, s.id));
  return {
    actions: pcs.map((me) => {
      const why = me.dead || me.outOfFight || me.unconscious ? forbid(`${me.name} cannot act`) : me.dying !== null ? forbid(`${me.name} is dying`) : yes;
      return { ...skillCheck(me, judge(why)), name: me.name };
    }),
  };
}

const SPIRIT_BOONS: ActionOption[] = [
  { value: 'attack', label: 'Advantage on their attacks' },
  { value: 'save', label: 'Advantage on their saves' },
  { value: 'defense', label: 'Disadvantage on attacks against them' },
];

export const tswActions = (kit: EncounterKit) => actionsQuery(BANDS_ECONOMY, (a) => build(kit, a));
