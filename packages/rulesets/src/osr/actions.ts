// osr.actions: what the acting creature may do now (001 "Types of Actions":
// one active, one movement and one quick action; an active action trades down
// to either, a movement action to a quick one). Attack targets are the
// characters of the encounter this asker can see.
import { asJson } from '@tablekeeper/engine/events';
import { controls, EMPTY_ECONOMY, err, getEncounter, isFoeCharacter, OSR_ECONOMY, own, ok, planSpend, type Combatant, type Json, type Query, type Result, type World } from '@tablekeeper/engine';
import { areAllies, cannotStabilize, HIDE_DC, HIDE_TAGS } from './combat-commands.js';
import { action, actionsQuery, affordable, forbid, judge, othersInView, sideOf, standingIn, type Actor, type ActionOption, type ActionsAnswer, type TurnAction } from '../actions.js';
import { ABILITIES, abilityModifier } from './checks.js';
import { ATTACK_ABILITY, type AttackKind } from './combat.js';
import { getOsr, sheetOf } from './state.js';
import { lightChoice } from './checks-query.js';
import { isHidden, lacksAc, SET_AC } from './shared.js';

const KINDS: readonly ActionOption[] = [
  { value: 'melee', label: 'Melee (STR)' },
  { value: 'ranged', label: 'Ranged (DEX)' },
  { value: 'arcane', label: 'Arcane (INT)' },
  { value: 'divine', label: 'Divine (WIS)' },
];

/**
 * 001 "Range": close (in melee reach, where a shot is at disadvantage) or ranged; far is beyond any attack, so not
 * offered. The empty value sends nothing: the command's own default (close for melee, ranged for shots and spells).
 */
const RANGES: readonly ActionOption[] = [
  { value: '', label: 'Usual: close for melee, ranged for shots and spells' },
  { value: 'close', label: 'Close: in melee (5-10 ft)' },
  { value: 'ranged', label: 'Ranged: beyond melee reach' },
];

/** 001 "Range & Attacks": a spell is melee or ranged as listed; a weapon is delivered as its kind (empty: nothing sent). */
const DELIVERIES: readonly ActionOption[] = [
  { value: '', label: 'A weapon, or a ranged spell' },
  { value: 'melee', label: 'A melee spell (touch)' },
];

/** Why visible foes are no targets (a GM review finding: "nobody to attack" with three foes on the tracker): they were added without an AC. */
function noArmourClass(a: Actor, me: string | null): string {
  const bare = othersInView(a).filter((c) => c.characterId !== me && (c.characterId === null || own(a.world.characters, c.characterId) === undefined));
  if (bare.length === 0) return '';
  const names = bare.slice(0, 3).map((c) => c.name);
  const list = bare.length > 3 ? `${names.join(', ')} and ${bare.length - 3} more` : names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `: ${list} ${bare.length === 1 ? 'has' : 'have'} no AC to roll against (give it one with Set AC under Adjust on its row, or in its stat block or quick stats when it is added)`;
}

/** Beside a foe made without an AC: 001 names no default, so the sheet's is used and the picker says so (ADR 76). */
const NO_AC_GIVEN = "no AC given: the sheet's default AC 10 is used";

const ABILITY_OPTIONS: readonly ActionOption[] = ABILITIES.map((x) => ({ value: x, label: x.toUpperCase() }));
const yes = { allowed: true, reason: null };

/**
 * The rules the screen could only reach through "Any command" (a GM review
 * finding): stabilizing a dying ally, a plain ability check and, for the GM,
 * the foes' morale (001 "Stabilizing & Injuries", "Saves & Checks", "Morale").
 */
function rulesBeyondAttack(a: Actor, me: string | null): TurnAction[] {
  const st = getOsr(a.world);
  const out: TurnAction[] = [];
  // Allies first (001: an ally stabilizes the incapacitated; review 6: a dying goblin led the phone's list); a foe is marked refused.
  const dying: ActionOption[] = [...othersInView(a)]
    .sort((x, y) => (x.side === a.combatant.side ? 0 : 1) - (y.side === a.combatant.side ? 0 : 1))
    .flatMap((c) => {
      if (c.characterId === null || c.characterId === me || st.dying[c.characterId] === undefined) return [];
      const why = me === null ? null : cannotStabilize(a.world, me, c.characterId);
      return [{ value: c.characterId, label: c.name, note: 'dying', side: sideOf(a, c), standing: 'down' as const, ...(why === null || why.error.code === 'HELPER_DOWN' ? {} : { refused: why.error.message }) }];
    });
  const unable = me === null ? forbid(`${a.combatant.name} has no character sheet to roll with`) : st.dead.includes(me) ? forbid(`${a.combatant.name} is dead`) : st.dying[me] !== undefined ? forbid(`${a.combatant.name} is dying`) : yes;
  out.push(stabilizeAction({ id: 'stabilize', label: 'Stabilize', helper: me, options: dying, allowed: judge(unable, dying.length === 0 ? forbid('nobody in view is dying (at 0 HP and not yet stabilized)') : yes) }));
  // 001 "Saves & Checks": d20 + modifier against the DC the GM names; it costs no action of its own.
  out.push(
    action({
      id: 'check',
      label: 'Ability check',
      cost: 'no action (the GM calls for it)',
      command: 'osr.check',
      fixed: me === null ? {} : { characterId: me },
      // The light's tag goes with the roll (001 "Light"; review 13: the in-fight check sent none).
      choices: [{ field: 'ability', label: 'Ability', options: ABILITY_OPTIONS }, lightChoice()],
      numbers: [
        { field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: 10 },
        { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
        { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
      ],
      flags: [{ field: 'proficient', label: 'Proficient', value: false }],
      texts: [{ field: 'label', label: 'What for', value: 'a check', max: 100 }],
      odds: me === null ? null : { query: 'osr.checkOdds', args: { characterId: me }, pass: ['ability', 'difficulty', 'bonus', 'advantage', 'proficient', 'tags'] },
      ...judge(me === null ? forbid(`${a.combatant.name} has no character sheet to roll with`) : incapacity(a, me)),
    }),
  );
  // 001 "Morale": the GM calls it for whoever could check: every living, conscious creature in the fight with a
  // character, the monsters first (the acting one's side first, itself leading), then PCs, who always roll alone.
  if (a.viewer.role === 'gm') {
    const everyone = [a.combatant, ...othersInView(a)];
    const rank = (c: Combatant): number => (c.kind === 'pc' ? 2 : c.side === a.combatant.side ? 0 : 1);
    // The acting monster's side is ticked at the start: all the goblins, not only the one whose turn it is.
    out.push(moraleAction(a.world, everyone, rank, (c) => c.kind !== 'pc' && c.side === a.combatant.side, 'the GM called for it'));
  }
  return out;
}

/**
 * The morale form (001 "Morale Checks", "Side, Group, or Individual"): who could check (living, conscious, with a
 * character), ordered by `rank`; those `picked` ticked; as a side, a group or one by one; advantage with its reason
 * (001: "such as being outnumbered"); the exact odds with WIS, proficiency and the morale bonus (osr.moraleOdds).
 */
function moraleAction(world: World, combatants: readonly Combatant[], rank: (c: Combatant) => number, picked: (c: Combatant) => boolean, trigger: string): TurnAction {
  const st = getOsr(world);
  const able = (id: string | null): id is string => id !== null && own(world.characters, id) !== undefined && !st.dead.includes(id) && st.dying[id] === undefined && sheetOf(world, id).hp > 0;
  const everyone = combatants.filter((c, i, all) => able(c.characterId) && all.findIndex((x) => x.characterId === c.characterId) === i);
  const options: ActionOption[] = everyone
    .map((c, i) => ({ c, i }))
    .sort((x, y) => rank(x.c) - rank(y.c) || x.i - y.i)
    .map(({ c }) => ({ value: c.characterId!, label: c.name, ...(c.kind === 'pc' ? { note: 'PC: rolls alone' } : {}) }));
  const ticked = options.filter((o) => everyone.some((c) => c.characterId === o.value && picked(c))).map((o) => o.value);
  return action({
    id: 'morale',
    label: 'Morale check',
    cost: 'no action (the GM calls for it: DC 11 on WIS)',
    command: 'osr.morale',
    fixed: {},
    target: { field: 'characterIds', multiple: true, max: Math.max(1, options.length), options, picked: ticked },
    choices: [
      {
        field: 'as',
        label: 'Rolled',
        options: [
          { value: 'side', label: 'As a side (one roll, by the first picked)' },
          { value: 'group', label: 'As a group (one roll, by the first picked)' },
          { value: 'individual', label: 'Each on their own' },
        ],
      },
    ],
    numbers: [{ field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 }],
    flags: [{ field: 'proficient', label: 'Proficient (if fitting)', value: false }],
    texts: [
      { field: 'advantageWhy', label: 'Why the advantage (e.g. outnumbered)', value: '', max: 100 },
      { field: 'trigger', label: 'Why now', value: trigger.slice(0, 100), max: 100 },
    ],
    // Each picked one's own chance: a side or group rolls once, with the first's.
    odds: { query: 'osr.moraleOdds', args: { characterIds: [] }, pass: ['advantage', 'proficient'] },
    ...judge(options.length === 0 ? forbid('nobody left standing to check morale') : yes),
  });
}

/**
 * osr.moraleActions: the morale form for the GM's prompt (review 7: its button rolled at once for the foes). The
 * prompt's side is ticked; when it is the party's side (one with PCs), its hirelings and retainers are ticked and
 * its PCs offered to roll alone (001: "PCs rarely have to check morale"); the other side's creatures follow.
 */
export const osrMoraleActions: Query = (world, args, viewer) => {
  if (viewer.role !== 'gm') return err('FORBIDDEN', 'only the GM calls for morale checks', 'side');
  const side = args['side'];
  const trigger = args['trigger'];
  if (side !== undefined && typeof side !== 'string') return err('INVALID_VALUE', 'side must be a side of the fight', 'side');
  const enc = getEncounter(world);
  const all = enc.roster.map((x) => own(enc.combatants, x)).filter((c): c is Combatant => c !== undefined);
  const target = side ?? all.find((c) => c.kind !== 'pc')?.side ?? null;
  const rank = (c: Combatant): number => (c.side === target ? (c.kind === 'pc' ? 1 : 0) : c.kind === 'pc' ? 3 : 2);
  const answer: ActionsAnswer = {
    combatantId: target ?? '',
    name: target ?? 'nobody',
    onTurn: false,
    actions: [moraleAction(world, all, rank, (c) => c.side === target && c.kind !== 'pc', typeof trigger === 'string' && trigger.trim() !== '' ? trigger : 'the GM called for it')],
  };
  return ok(asJson(answer));
};

/**
 * The Stabilize form (001 "Stabilizing & Injuries"): a check by the helper, DC 10 unless the GM says otherwise
 * (WIS first: tending wounds), with its exact odds; the Injury Table follows a success.
 */
function stabilizeAction(o: { id: string; label: string; helper: string | null; options: readonly ActionOption[]; picked?: readonly string[]; allowed: { allowed: boolean; reason: string | null } }): TurnAction {
  return action({
    id: o.id,
    label: o.label,
    cost: 'a check (DC 10 unless the GM says otherwise), then the Injury Table on a success',
    command: 'osr.stabilize',
    fixed: o.helper === null ? {} : { helperId: o.helper, method: 'check' },
    target: { field: 'targetId', multiple: false, aim: 'allies', options: o.options, ...(o.picked !== undefined ? { picked: o.picked } : {}) },
    choices: [{ field: 'ability', label: 'Ability', options: [ABILITY_OPTIONS[4]!, ...ABILITY_OPTIONS.filter((_, i) => i !== 4)] }],
    numbers: [
      { field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: 10 },
      { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
      { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
    ],
    flags: [{ field: 'proficient', label: 'Proficient', value: false }],
    odds: o.helper === null ? null : { query: 'osr.checkOdds', args: { characterId: o.helper }, pass: ['ability', 'difficulty', 'bonus', 'advantage', 'proficient'] },
    ...o.allowed,
  });
}

/**
 * osr.stabilizeActions: Stabilize outside a turn, above all in the minute after a fight (001 "Death & Injury": dead
 * unless stabilized within a minute or by the fight's end, whichever is later; review 7: nothing on screen could).
 * With `characterId`: that helper's form over the dying in view (a phone acts for its own character). With
 * `targetId` alone: one form per ally able to help that dying creature, and for the GM a spell or other means.
 */
export const osrStabilizeActions: Query = (world, args, viewer) => {
  const helper = args['characterId'];
  const target = args['targetId'];
  if (helper !== undefined && typeof helper !== 'string') return err('INVALID_VALUE', 'characterId must be a character id', 'characterId');
  if (target !== undefined && typeof target !== 'string') return err('INVALID_VALUE', 'targetId must be a character id', 'targetId');
  if (helper === undefined && target === undefined) return err('INVALID_VALUE', 'name who helps (characterId) or who is dying (targetId)', 'characterId');
  if (viewer.role === 'spectator') return err('FORBIDDEN', 'a spectator stabilizes nobody', 'characterId');
  const st = getOsr(world);
  const name = (id: string): string => own(world.characters, id)?.name ?? 'someone';
  const dying = Object.keys(st.dying).filter((id) => own(world.characters, id) !== undefined && !st.dead.includes(id));
  if (helper !== undefined) {
    const ch = own(world.characters, helper);
    if (ch === undefined) return err('NOT_FOUND', 'characterId: no such character', 'characterId');
    if (!controls(world, viewer, helper)) return err('FORBIDDEN', `${ch.name} is not one of your characters`, 'characterId');
    const options: ActionOption[] = dying
      // Outside a turn only allies are offered (a dying foe is the GM's to save, by its own side).
      .filter((id) => id !== helper && (target === undefined || id === target) && areAllies(world, helper, id))
      .map((id) => ({ value: id, label: name(id), note: 'dying', side: 'ally' as const, standing: 'down' as const }));
    const unable = st.dead.includes(helper) ? forbid(`${ch.name} is dead`) : sheetOf(world, helper).hp <= 0 ? forbid(`${ch.name} is at 0 HP and unable to act`) : yes;
    const allowed = judge(unable, options.length === 0 ? forbid(`none of ${ch.name}'s allies in view is dying (at 0 HP and not yet stabilized)`) : yes);
    const picked = options.length === 0 ? undefined : [options[0]!.value];
    return ok(asJson({ combatantId: helper, name: ch.name, onTurn: false, actions: [stabilizeAction({ id: 'stabilize', label: 'Stabilize', helper, options, ...(picked !== undefined ? { picked } : {}), allowed })] }));
  }
  const t = target!;
  if (own(world.characters, t) === undefined) return err('NOT_FOUND', 'targetId: no such character', 'targetId');
  if (!dying.includes(t)) return err('NOT_DYING', `${name(t)} is not dying (at 0 HP and not yet stabilized)`, 'targetId');
  const only: ActionOption[] = [{ value: t, label: name(t), note: 'dying', standing: 'down' }];
  // Who could help: the last fight's creatures and the party, each an ally able to act (the GM's screen: anyone; a phone: its own).
  const enc = getEncounter(world);
  const inFight = new Set(enc.roster.map((x) => own(enc.combatants, x)?.characterId).filter((x): x is string => typeof x === 'string'));
  const helpers = Object.values(world.characters).filter((c) => (inFight.has(c.id) || !isFoeCharacter(world, c.id)) && controls(world, viewer, c.id) && cannotStabilize(world, c.id, t) === null);
  const actions: TurnAction[] = helpers.map((h) => stabilizeAction({ id: `stabilize-by-${h.id}`, label: `${h.name} stabilizes ${name(t)}`, helper: h.id, options: only, picked: [t], allowed: yes }));
  if (viewer.role === 'gm') {
    // 001 also lets a spell or other healing stabilize; no check is rolled, the Injury Table still is.
    actions.push(
      action({
        id: 'stabilize-other',
        label: 'A spell or other means',
        cost: 'no check; the Injury Table follows',
        command: 'osr.stabilize',
        fixed: {},
        target: { field: 'targetId', multiple: false, aim: 'allies', options: only, picked: [t] },
        choices: [{ field: 'method', label: 'How', options: [{ value: 'spell', label: 'a spell' }, { value: 'other', label: 'other means' }] }],
      }),
    );
  }
  return ok(asJson({ combatantId: t, name: name(t), onTurn: false, actions }));
};

/**
 * The damage field says what is added to its dice (001 "Dealing Damage": dice plus the attack's ability modifier;
 * review 9: a bare "Damage" hid it, so "1d6 + 3" typed from a sheet added DEX twice).
 */
function damageLabel(world: World, me: string | null): string {
  if (me === null || own(world.characters, me) === undefined) return 'Damage dice (the ability modifier is added)';
  const s = sheetOf(world, me);
  const added = KINDS.map((k) => {
    const ability = ATTACK_ABILITY[k.value as AttackKind];
    return `${k.value} + ${ability.toUpperCase()} ${abilityModifier(s[ability])}`;
  });
  return `Damage dice, before the ability modifier (${added.join('; ')})`;
}

function build(a: Actor): Result<readonly TurnAction[]> {
  const me = a.combatant.characterId;
  const st = getOsr(a.world);
  // Attacks name characters: a foe with no character (a name on the tracker only) has no AC to roll against.
  const targets: ActionOption[] = othersInView(a).flatMap((c): ActionOption[] => {
    if (c.characterId === me) return [];
    // A foe with no AC yet is listed, never silently left out (review 10: the builder's goblins were missing): picked, it says what it needs.
    if (c.characterId === null || own(a.world.characters, c.characterId) === undefined) return c.kind === 'npc' ? [{ value: c.id, label: c.name, side: sideOf(a, c), refused: `no AC yet: ${SET_AC}` }] : [];
    if (isHidden(a.world, c.characterId)) return [];
    // A phone's world holds no foe's HP (ADR 33): dying and the row's own state say it is down (review 11: a dying goblin led the phone's list).
    const down = sheetOf(a.world, c.characterId).hp <= 0 || st.dying[c.characterId] !== undefined || standingIn(c) === 'down';
    const standing = st.dead.includes(c.characterId) ? ('dead' as const) : down ? ('down' as const) : ('up' as const);
    // Made without an AC (the builder's box left blank): rolled against the sheet's default, and the picker says so (ADR 76).
    // The GM's note only: a player's world holds no foe's AC at all, so every foe would read as "no AC given".
    const noAc = a.viewer.role === 'gm' && lacksAc(a.world, c.characterId) ? NO_AC_GIVEN : null;
    const note = [standing === 'up' ? null : standing, noAc].filter((x): x is string => x !== null).join('; ');
    return [{ value: c.characterId, label: c.name, side: sideOf(a, c), standing, ...(note === '' ? {} : { note }) }];
  });
  // Living foes first: a downed foe is never the form's silent default (a GM review finding); the web orders the rest by side (ADR 52).
  targets.sort((x, y) => (x.standing === 'up' ? 0 : 1) - (y.standing === 'up' ? 0 : 1));
  // 001 "Death & Injury": at 0 HP a combatant is incapacitated and unable to act; the dead neither. No form is offered (review 6: the phone kept them).
  const unable = incapacity(a, me);
  // The attacker's own numbers start the form: a stat block's attack bonus and damage (001 "NPC Attacks"), proficient when a PC's sheet names its bonus.
  const mine = me === null ? undefined : own(a.world.characters, me);
  const stat = (k: string): Json | undefined => (mine === undefined ? undefined : own(mine.stats, k));
  const bonus = stat('attackBonus');
  const damage = stat('damage');
  const attack = action({
    id: 'attack',
    label: 'Attack',
    cost: '1 active action',
    command: 'osr.attack',
    fixed: me === null ? {} : { attackerId: me },
    target: { field: 'targetId', multiple: false, options: targets },
    choices: [
      { field: 'kind', label: 'Kind', options: KINDS },
      { field: 'range', label: 'Range', options: RANGES },
      { field: 'delivery', label: 'Spell delivery', options: DELIVERIES },
    ],
    numbers: [
      { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: typeof bonus === 'number' && Number.isInteger(bonus) ? Math.max(-30, Math.min(30, bonus)) : 0 },
      { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
    ],
    flags: [
      { field: 'proficient', label: 'Proficient', value: mine?.kind === 'pc' && me !== null && sheetOf(a.world, me).proficiency !== null },
      // 001 "Light": dim light and darkness hinder long-range attacks, and so does brilliant light.
      { field: 'longRange', label: 'Long range (the light may hinder it)', value: false },
    ],
    texts: [{ field: 'damage', label: damageLabel(a.world, me), value: typeof damage === 'string' && damage.trim() !== '' && damage.length <= 20 ? damage.trim() : '1d6', max: 20 }],
    odds: me === null ? null : { query: 'osr.attackOdds', args: { attackerId: me }, pass: ['targetId', 'kind', 'range', 'delivery', 'longRange', 'bonus', 'advantage', 'proficient', 'damage'] },
    ...judge(
      me === null ? forbid(`${a.combatant.name} has no character sheet to attack with`) : { allowed: true, reason: null },
      unable,
      affordable(a, 'active'),
      targets.every((t) => t.refused !== undefined) ? forbid(`nobody this view can see to attack${noArmourClass(a, me)}`) : { allowed: true, reason: null },
    ),
  });
  // 001 "Positioning": a stealth check (DEX, DC 11 unless the GM says otherwise) the light may favour; in stealth, no one can target you.
  const hide = action({
    id: 'hide',
    label: 'Hide',
    cost: '1 active action',
    command: 'osr.hide',
    fixed: me === null ? {} : { characterId: me },
    numbers: [
      { field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: HIDE_DC },
      { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
      { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
    ],
    flags: [{ field: 'proficient', label: 'Proficient', value: false }],
    // The odds roll as the hide does: DEX and stealth's tag, so the light's advantage is in the number shown.
    odds: me === null ? null : { query: 'osr.checkOdds', args: { characterId: me, ability: 'dex', tags: [...HIDE_TAGS] }, pass: ['difficulty', 'bonus', 'advantage', 'proficient'] },
    ...judge(
      me === null ? forbid(`${a.combatant.name} has no character sheet to roll with`) : yes,
      unable,
      me !== null && getOsr(a.world).hidden.includes(me) ? forbid(`${a.combatant.name} is already in stealth`) : yes,
      affordable(a, 'active'),
    ),
  });
  // Move is osr.move (feet and terrain, a log line with the feet used); 001 lets a movement action be paid with the active one.
  const left = feetLeft(a);
  const move = action({
    id: 'move',
    label: 'Move',
    // Feet left from this turn's movement action cost nothing more; once used up, the next move pays for another.
    cost: left > 0 ? `free (${left}' left this turn)` : costOf(a, 'movement'),
    command: 'osr.move',
    fixed: left === 0 && feetMoved(a) ? { characterId: a.combatant.id, another: true } : { characterId: a.combatant.id },
    numbers: [{ field: 'feet', label: 'Feet', min: 1, max: 300, value: left > 0 ? left : 30 }],
    choices: [{ field: 'mode', label: 'Way', options: MODES }],
    // Paying with the active action takes a tick of its own (GM review: Move silently took the goblin's attack).
    ...(left === 0 && poolOf(a, 'movement') === 'active' ? { flags: [ACTIVE_FLAG] } : {}),
    ...judge(unable, left > 0 ? { allowed: true, reason: null } : affordable(a, 'movement')),
  });
  // 001 "Quick Actions": what is done goes into the log; a trade down from the active action is ticked, never silent.
  const quick = action({
    id: 'quick',
    label: 'Quick action',
    cost: costOf(a, 'quick'),
    command: 'osr.quick',
    fixed: { characterId: a.combatant.id },
    texts: [{ field: 'what', label: 'What it is', value: 'a quick action', max: 100 }],
    ...(poolOf(a, 'quick') === 'active' ? { flags: [ACTIVE_FLAG] } : {}),
    ...judge(unable, affordable(a, 'quick')),
  });
  return ok([attack, ...rulesBeyondAttack(a, me), hide, move, quick, ...retreatActions(a, me, unable)]);
}

/**
 * 001 "Retreat": a special action that takes the whole turn, so only before anything else is spent; the GM may call
 * for a check (its odds shown) or let it go. A retreat that holds ends when the GM lets the creature get away.
 */
function retreatActions(a: Actor, me: string | null, unable: { allowed: boolean; reason: string | null }): TurnAction[] {
  const econ = own(getEncounter(a.world).economy, a.combatant.id) ?? EMPTY_ECONOMY;
  const started = Object.values(econ.spent).some((n) => n > 0) ? forbid('retreat takes the whole turn: it cannot follow another action') : yes;
  const turn = a.onTurn ? yes : forbid(`it is not ${a.combatant.name}'s turn: retreat is taken on one's own turn`);
  const when = judge(unable, turn, started);
  const cost = 'the whole turn (active, movement and quick actions)';
  const out: TurnAction[] = [
    action({ id: 'retreat', label: 'Retreat', cost: `${cost}; no check`, command: 'osr.retreat', fixed: { characterId: a.combatant.id }, ...when }),
    action({
      id: 'retreat-check',
      label: 'Retreat through danger (a check)',
      cost: `${cost}; failed, the retreat stops`,
      command: 'osr.retreat',
      fixed: { characterId: a.combatant.id },
      choices: [{ field: 'ability', label: 'Ability', options: [ABILITY_OPTIONS[1]!, ...ABILITY_OPTIONS.filter((_, i) => i !== 1)] }],
      numbers: [
        { field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: 11 },
        { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
      ],
      texts: [{ field: 'damageOnFail', label: 'Damage on a failure (dice, may be empty)', value: '', max: 20 }],
      odds: me === null ? null : { query: 'osr.checkOdds', args: { characterId: me }, pass: ['ability', 'difficulty', 'advantage'] },
      ...when,
    }),
  ];
  // The GM's: whoever is retreating gets away (after any chase), whose turn it is or not.
  if (a.viewer.role === 'gm') {
    const enc = getEncounter(a.world);
    const away: ActionOption[] = Object.values(getOsr(a.world).retreating).flatMap((r) => {
      const c = own(enc.combatants, r.combatant);
      return c === undefined ? [] : [{ value: c.id, label: c.name, note: 'retreating' }];
    });
    out.push(
      action({
        id: 'escape',
        label: 'Let a retreating creature get away',
        cost: 'leaves the fight; the others keep initiative',
        command: 'osr.escape',
        fixed: {},
        target: { field: 'characterId', multiple: false, label: 'Who gets away', aim: 'allies', options: away, ...(away.length > 0 ? { picked: [away[0]!.value] } : {}) },
        ...(away.length === 0 ? forbid('nobody is retreating (or every retreat failed)') : yes),
      }),
    );
  }
  return out;
}

/** Why this creature cannot act at all now (001 "Death & Injury"): dead, or at 0 HP (dying or stable); allowed otherwise. */
function incapacity(a: Actor, me: string | null): { allowed: boolean; reason: string | null } {
  if (me === null) return yes;
  const st = getOsr(a.world);
  if (st.dead.includes(me)) return forbid(`${a.combatant.name} is dead`);
  if (sheetOf(a.world, me).hp <= 0) return forbid(`${a.combatant.name} is at 0 HP: incapacitated and unable to act until healed or stabilized back to 1 HP`);
  return yes;
}

const MODES: readonly ActionOption[] = [
  { value: 'walk', label: 'walk' },
  { value: 'climb', label: 'climb (half speed)' },
  { value: 'swim', label: 'swim (half speed)' },
  { value: 'crawl', label: 'crawl (half speed)' },
  { value: 'difficult', label: 'difficult terrain (half speed)' },
];

const WORDS: { readonly [pool: string]: string } = { active: 'the active action', movement: 'the movement action', quick: 'the quick action' };

/** This turn's movement so far (osr.move keeps feet used against the budget of the movement actions spent). */
function thisTurn(a: Actor): { used: number; budget: number } | null {
  const enc = getEncounter(a.world);
  const m = own(getOsr(a.world).moved, a.combatant.id);
  const serial = own(enc.lastTurn, a.combatant.id) ?? enc.turnSerial;
  return m !== undefined && m.serial === serial && a.onTurn ? m : null;
}
const feetLeft = (a: Actor): number => {
  const m = thisTurn(a);
  return m === null ? 0 : Math.max(0, m.budget - m.used);
};
const feetMoved = (a: Actor): boolean => thisTurn(a) !== null;

const ACTIVE_FLAG = { field: 'withActive', label: 'Pay with the active action', value: false } as const;

/** The pool a spend of this kind would pay from now, if any. */
function poolOf(a: Actor, kind: 'movement' | 'quick'): string | undefined {
  const econ = own(getEncounter(a.world).economy, a.combatant.id) ?? EMPTY_ECONOMY;
  const plan = planSpend(a.def, econ, { kind, cost: 1, onTurn: a.onTurn });
  return plan.ok ? plan.value.paid[0]?.pool : undefined;
}

/** What this spend would pay with now: a trade down is named before the click (GM review: Move silently took the attack). */
function costOf(a: Actor, kind: 'movement' | 'quick'): string {
  const pool = poolOf(a, kind);
  if (pool === undefined || pool === kind) return kind === 'movement' ? '1 movement action' : '1 quick action';
  return `${WORDS[pool] ?? pool} (the ${kind} action is spent)`;
}

export const osrActions = actionsQuery(OSR_ECONOMY, build);
