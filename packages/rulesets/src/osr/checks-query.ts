// osr.checks: the checks a party makes while exploring (001 "Positioning", "Light"), reachable with no fight
// running (issue 20, review 13): Hide, Listen, Search, Track and a plain ability check for each PC the viewer
// plays (the GM: every PC), each with its exact odds from osr.checkOdds and the light's tags; and, for the GM,
// "Spotted" for a PC in stealth. In a fight Hide is an active action on the hider's own turn, so it is refused here.
import { asJson } from '@tablekeeper/engine/events';
import { controls, getEncounter, ok, own, type Query, type World } from '@tablekeeper/engine';
import { action, forbid, judge, type ActionOption, type TurnAction } from '../actions.js';
import { ABILITIES } from './checks.js';
import { HIDE_DC, HIDE_TAGS } from './combat-commands.js';
import type { CheckTag } from './exploration.js';
import { getOsr, sheetOf } from './state.js';

type Check = TurnAction & { readonly name: string };

/**
 * What the light bears on, for a check the GM calls (001 "Light"): darkness and dim light favour listening and
 * hinder sight; darkness hinders predicting danger and finesse; brilliant light favours tracking and seeing movement.
 * Several may be ticked (ADR 111: one act can be several kinds, a search by sight for a trap is seeing and predicting
 * danger); the light is one source, so however many are ticked it gives at most one advantage and one
 * disadvantage (lightEffect). `first` opens ticked; '' opens with none, and is never a tick of its own.
 */
export function lightChoice(first: CheckTag | '' = ''): TurnAction['choices'][number] {
  const all: ActionOption[] = [
    { value: '', label: 'nothing the light changes' },
    { value: 'predicting-danger', label: 'predicting danger (avoiding a trap)' },
    { value: 'sight', label: 'seeing (spotting, searching by sight)' },
    { value: 'finesse', label: 'finesse (disarming, fine handwork)' },
    { value: 'listening', label: 'listening' },
    { value: 'stealth', label: 'stealth' },
    { value: 'tracking', label: 'tracking' },
    { value: 'seeing-movement', label: 'seeing movement' },
  ];
  return { field: 'tags', label: 'The light bears on', list: true, options: [...all.filter((o) => o.value === first), ...all.filter((o) => o.value !== first)] };
}
const yes = { allowed: true, reason: null };

/** An ability picker opening on `first` (WIS for the senses: 001 names no ability, the GM may pick another). */
const abilities = (first: (typeof ABILITIES)[number]): ActionOption[] => [first, ...ABILITIES.filter((x) => x !== first)].map((x) => ({ value: x, label: x.toUpperCase() }));

const modifierFields = (dc: number) => ({
  numbers: [
    { field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: dc },
    { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
    { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
  ],
  flags: [{ field: 'proficient', label: 'Proficient', value: false }],
});

/** A sense's check (001 "Light": darkness and dim light favour listening; brilliant light favours tracking; darkness makes sight impossible). */
function senseCheck(characterId: string, name: string, id: string, label: string, what: string, tag: CheckTag, why: { allowed: boolean; reason: string | null }): Check {
  return {
    ...action({
      id: `${id}:${characterId}`,
      label,
      cost: 'no action (a check while exploring; the GM sets the DC)',
      command: 'osr.check',
      fixed: { characterId: characterId, label: what },
      // The sense opens ticked; the GM may tick more (listening while hiding) or untick it.
      choices: [{ field: 'ability', label: 'Ability', options: abilities('wis') }, lightChoice(tag)],
      ...modifierFields(10),
      odds: { query: 'osr.checkOdds', args: { characterId: characterId }, pass: ['ability', 'difficulty', 'bonus', 'advantage', 'proficient', 'tags'] },
      ...why,
    }),
    name,
  };
}

/** Whether `characterId` is in the running fight's line-up (its Hide is then an action on its turn). */
function inFight(world: World, characterId: string): boolean {
  const enc = getEncounter(world);
  return enc.active && enc.roster.some((x) => own(enc.combatants, x)?.characterId === characterId);
}

export function checksOf(world: World, viewer: Parameters<Query>[2]): { readonly actions: readonly Check[] } {
  const st = getOsr(world);
  const pcs = Object.values(world.characters).filter((c) => c.kind === 'pc' && !st.dead.includes(c.id) && controls(world, viewer, c.id));
  const actions = pcs.flatMap((ch): Check[] => {
    const unable = st.dying[ch.id] !== undefined ? forbid(`${ch.name} is dying`) : sheetOf(world, ch.id).hp <= 0 ? forbid(`${ch.name} is at 0 HP and unable to act`) : yes;
    const hidden = st.hidden.includes(ch.id);
    const hide: Check = {
      ...action({
        id: `hide:${ch.id}`,
        label: 'Hide',
        cost: 'no action outside a fight (a stealth check: DEX, DC 11 unless the GM says otherwise)',
        command: 'osr.hide',
        fixed: { characterId: ch.id },
        ...modifierFields(HIDE_DC),
        odds: { query: 'osr.checkOdds', args: { characterId: ch.id, ability: 'dex', tags: [...HIDE_TAGS] }, pass: ['difficulty', 'bonus', 'advantage', 'proficient'] },
        ...judge(
          unable,
          hidden ? forbid(`${ch.name} is already in stealth`) : yes,
          inFight(world, ch.id) ? forbid(`${ch.name} is in the fight: Hide is an active action on ${ch.name}'s turn, in the turn's actions`) : yes,
        ),
      }),
      name: ch.name,
    };
    const general: Check = {
      ...action({
        id: `check:${ch.id}`,
        label: 'Ability check',
        cost: 'no action (the GM calls for it)',
        command: 'osr.check',
        fixed: { characterId: ch.id },
        choices: [{ field: 'ability', label: 'Ability', options: abilities('str') }, lightChoice()],
        ...modifierFields(10),
        texts: [{ field: 'label', label: 'What for', value: 'a check', max: 100 }],
        odds: { query: 'osr.checkOdds', args: { characterId: ch.id }, pass: ['ability', 'difficulty', 'bonus', 'advantage', 'proficient', 'tags'] },
        ...unable,
      }),
      name: ch.name,
    };
    // 001 "Saves & Checks", "Traps", "Critical Failure": the GM springs a trap or calls for a save; a failure
    // takes the damage, doubled on a natural 1. The GM's alone: a trap is the GM's to spring.
    const trap: Check[] =
      viewer.role === 'gm'
        ? [
            {
              ...action({
                id: `trap:${ch.id}`,
                label: 'Trap or save',
                cost: 'no action (the GM springs it or calls for the save; damage on a failure, doubled on a natural 1)',
                command: 'osr.check',
                fixed: { characterId: ch.id },
                choices: [{ field: 'ability', label: 'Ability', options: abilities('dex') }, lightChoice('predicting-danger')],
                ...modifierFields(10),
                texts: [
                  { field: 'label', label: 'What for', value: 'a trap', max: 100 },
                  { field: 'damageOnFail', label: 'Damage on a failure (dice, may be empty)', value: '1d6', max: 20 },
                ],
                odds: { query: 'osr.checkOdds', args: { characterId: ch.id }, pass: ['ability', 'difficulty', 'bonus', 'advantage', 'proficient', 'tags', 'damageOnFail'] },
                ...unable,
              }),
              name: ch.name,
            },
          ]
        : [];
    const spotted: Check[] =
      viewer.role === 'gm' && hidden
        ? [{ ...action({ id: `spotted:${ch.id}`, label: `Spotted: end ${ch.name}'s stealth`, cost: 'the GM rules it (001: stealth lasts until an attack or being found)', command: 'osr.reveal', fixed: { characterId: ch.id } }), name: ch.name }]
        : [];
    return [
      hide,
      senseCheck(ch.id, ch.name, 'listen', 'Listen', 'a listening check', 'listening', unable),
      senseCheck(ch.id, ch.name, 'search', 'Search (by sight)', 'a search by sight', 'sight', unable),
      senseCheck(ch.id, ch.name, 'track', 'Track', 'a tracking check', 'tracking', unable),
      general,
      ...trap,
      ...spotted,
    ];
  });
  return { actions };
}

export const osrChecks: Query = (world, _args, viewer) => ok(asJson(checksOf(world, viewer)));
