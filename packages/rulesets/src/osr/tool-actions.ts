// osr.toolActions: the GM's forms for rules that belong to a character or the
// party rather than to a turn (issue 20: the engine knew them, no screen did).
// With a characterId: resilience and exhaustion, corruptions, injuries and lost
// abilities (001 "Resilience & Exhaustion", "Corruptions", "Healing From Magic &
// Medicine", "Injury Table"). Without: the party's chase, treasure, magic items
// and an enemy's carried loot (001 "Chases", "Treasure"). Each is a TurnAction,
// so the web's one action form renders it, with odds where a check is rolled.
import { asJson } from '@tablekeeper/engine/events';
import { err, getEncounter, isFoeCharacter, ok, own, type Query, type World } from '@tablekeeper/engine';
import { action, forbid, type ActionOption, type TurnAction } from '../actions.js';
import { ABILITIES } from './checks.js';
import { resilienceDc } from './exploration.js';
import { getOsr, sheetOf } from './state.js';

const ABILITY_OPTIONS: readonly ActionOption[] = ABILITIES.map((x) => ({ value: x, label: x.toUpperCase() }));
/** CON first: 001 names it for resilience and most corruptions. */
const CON_FIRST: readonly ActionOption[] = [...ABILITY_OPTIONS.filter((o) => o.value === 'con'), ...ABILITY_OPTIONS.filter((o) => o.value !== 'con')];
const yes = { allowed: true, reason: null };
const HOUR = 3600;

/**
 * Corruptions the GM picks from (001 "Corruptions": stages of hours to weeks, 1d6 ability damage per stage, some
 * with exhaustion). The venom follows 001's own example; the others are the text's kinds with its common damage.
 */
export const CORRUPTIONS: readonly { readonly id: string; readonly name: string; readonly says: string; readonly stages: readonly { readonly hours: number; readonly ability: string | null; readonly dice: number; readonly exhaustion: boolean }[] }[] = [
  { id: 'venom', name: 'venom', says: 'exhausted at once; then 1d6 CON every 2 hours, twice', stages: [{ hours: 2, ability: null, dice: 0, exhaustion: true }, { hours: 2, ability: 'con', dice: 1, exhaustion: false }, { hours: 2, ability: 'con', dice: 1, exhaustion: false }] },
  { id: 'poison', name: 'poison', says: '1d6 STR each hour, three stages', stages: [1, 2, 3].map(() => ({ hours: 1, ability: 'str', dice: 1, exhaustion: false })) },
  { id: 'disease', name: 'disease', says: '1d6 CON each day, three stages, exhausted from the second', stages: [0, 1, 2].map((i) => ({ hours: 24, ability: 'con', dice: 1, exhaustion: i > 0 })) },
  { id: 'rot', name: 'magical rot', says: '1d6 INT each week, three stages', stages: [1, 2, 3].map(() => ({ hours: 24 * 7, ability: 'int', dice: 1, exhaustion: false })) },
];

function characterTools(world: World, id: string): TurnAction[] {
  const st = getOsr(world);
  const ch = own(world.characters, id)!;
  const s = sheetOf(world, id);
  const dead = st.dead.includes(id) ? forbid(`${ch.name} is dead`) : yes;
  const hours = Math.floor((world.clock.seconds - (st.restedAt[id] ?? 0)) / HOUR);
  const due = resilienceDc(s.con, hours);
  const out: TurnAction[] = [];
  // 001 "Resilience & Exhaustion": CON hours without food or rest; past them, a CON check against 10 + the hours beyond.
  out.push(
    action({
      id: 'resilience',
      label: 'Resilience check',
      cost: due === null ? `not due: out ${hours} of ${s.con} hours` : `DC ${due} (${hours} hours out, resilience ${s.con})`,
      command: 'osr.resilience',
      fixed: { characterId: id },
      texts: [{ field: 'damageOnFail', label: 'Damage on a failure (dice, may be empty)', value: '', max: 20 }],
      odds: due === null ? null : { query: 'osr.checkOdds', args: { characterId: id, ability: 'con', difficulty: due }, pass: [] },
      ...(due === null ? forbid(`${ch.name} has been out ${hours} of ${s.con} hours: no check is due yet`) : dead),
    }),
    action({
      id: 'strain',
      label: 'Wear down resilience',
      cost: 'hours of resilience, told to the player',
      command: 'osr.strain',
      fixed: { characterId: id },
      numbers: [{ field: 'hours', label: 'Hours worn away', min: 1, max: 48, value: 1 }],
      texts: [{ field: 'reason', label: 'Why', value: 'hard going', max: 100 }],
      ...dead,
    }),
    action({
      id: 'exhaust',
      label: 'Exhaust',
      cost: 'the GM rules it',
      command: 'osr.exhaust',
      fixed: { characterId: id },
      texts: [{ field: 'reason', label: 'Why', value: 'tainted food', max: 100 }],
      ...(st.exhausted.includes(id) ? forbid(`${ch.name} is already exhausted`) : dead),
    }),
  );
  // 001 "Corruptions": a check (CON by default) against DC 11 or more; failed, the stages run on the clock.
  for (const k of CORRUPTIONS) {
    out.push(
      action({
        id: `expose-${k.id}`,
        label: `Expose to ${k.name}`,
        cost: `a check to resist; failed: ${k.says}`,
        command: 'osr.expose',
        fixed: { characterId: id, name: k.name, stages: k.stages.map((g) => ({ hours: g.hours, ability: g.ability, dice: g.dice, exhaustion: g.exhaustion })) },
        choices: [{ field: 'ability', label: 'Resisted with', options: CON_FIRST }],
        numbers: [{ field: 'difficulty', label: 'Difficulty (DC)', min: 1, max: 40, value: 11 }],
        odds: { query: 'osr.checkOdds', args: { characterId: id }, pass: ['ability', 'difficulty'] },
        ...dead,
      }),
    );
  }
  const mine: ActionOption[] = Object.values(st.corruptions)
    .filter((k) => k.target === id)
    .map((k) => ({ value: k.id, label: `${k.name} (stage ${k.stage + 1} of ${k.stages.length})` }));
  out.push(
    action({
      id: 'cure',
      label: 'Cure a corruption',
      cost: 'a cure the GM allows',
      command: 'osr.cure',
      fixed: {},
      target: { field: 'corruptionId', multiple: false, label: 'Corruption', aim: 'allies', options: mine, ...(mine.length > 0 ? { picked: [mine[0]!.value] } : {}) },
      ...(mine.length === 0 ? forbid(`${ch.name} has no corruption to cure`) : yes),
    }),
    // 001 "Healing From Magic & Medicine": mundane care lifts the injury's disadvantage, restores no HP.
    action({
      id: 'treat',
      label: 'Treat wounds',
      cost: "mundane care: the injury's disadvantage ends",
      command: 'osr.treat',
      fixed: { characterId: id },
      ...(st.shaken.includes(id) ? dead : forbid(`${ch.name} has no injury penalty that care removes`)),
    }),
    action({
      id: 'restore',
      label: 'Restore ability points',
      cost: 'weeks of rest and care',
      command: 'osr.restoreAbility',
      fixed: { characterId: id },
      choices: [{ field: 'ability', label: 'Ability', options: ABILITY_OPTIONS.map((o) => ({ ...o, label: `${o.label} (now ${s[o.value as (typeof ABILITIES)[number]]})` })) }],
      numbers: [{ field: 'amount', label: 'Points back', min: 1, max: 30, value: 1 }],
      ...dead,
    }),
    // 001 "Injury Table": some results take a body part of the GM's choice.
    action({
      id: 'body-part',
      label: 'Name a lost body part',
      cost: 'the GM names it (Injury Table)',
      command: 'osr.noteBodyPart',
      fixed: { characterId: id },
      texts: [{ field: 'part', label: 'Body part', value: '', max: 60, suggestions: ['left hand', 'right hand', 'left eye', 'right eye', 'left leg', 'right leg', 'ear', 'fingers'] }],
    }),
    coinsAction(world, id),
  );
  return out;
}

const COIN_OPTIONS: readonly ActionOption[] = [
  { value: 'cp', label: 'copper (cp)' },
  { value: 'sp', label: 'silver (sp)' },
  { value: 'gp', label: 'gold (gp)' },
];

/** 001 "Treasure": change coins in a purse (10 cp = 1 sp, 10 sp = 1 gp); what the purse holds is in the cost line. */
export function coinsAction(world: World, id: string): TurnAction {
  const s = sheetOf(world, id);
  const name = own(world.characters, id)!.name;
  const coins = s.cp + s.sp + s.gp;
  return action({
    id: 'coins',
    label: 'Change coins',
    cost: `the purse holds ${s.gp} gp, ${s.sp} sp, ${s.cp} cp (${coins} coins: 500 to a load)`,
    command: 'osr.convertCoins',
    fixed: { characterId: id },
    choices: [
      { field: 'from', label: 'From', options: [...COIN_OPTIONS].reverse() },
      { field: 'to', label: 'Into', options: COIN_OPTIONS },
    ],
    numbers: [{ field: 'amount', label: 'How many coins', min: 1, max: 10_000_000, value: Math.max(1, Math.min(10_000_000, s.gp)) }],
    ...(coins === 0 ? forbid(`${name}'s purse is empty`) : yes),
  });
}

function partyTools(world: World): TurnAction[] {
  const st = getOsr(world);
  const alive = (id: string) => !st.dead.includes(id);
  const pcs: ActionOption[] = Object.values(world.characters)
    .filter((c) => c.kind === 'pc' && alive(c.id))
    .map((c) => ({ value: c.id, label: c.name, side: 'ally' as const }));
  const all = pcs.map((o) => o.value);
  const party = { field: 'characterIds', multiple: true, max: Math.max(1, pcs.length), label: 'Who', aim: 'allies' as const, options: pcs, picked: all };
  const nobody = pcs.length === 0 ? forbid('no living PC at the table yet') : yes;
  // The last fight's foes first: their loot is what the party takes (1d20 gp per HD, 001 "Treasure").
  const enc = getEncounter(world);
  const inFight = new Set(enc.roster.map((x) => own(enc.combatants, x)?.characterId).filter((x): x is string => typeof x === 'string'));
  const foes: ActionOption[] = Object.values(world.characters)
    .filter((c) => c.kind !== 'pc' && (inFight.has(c.id) || isFoeCharacter(world, c.id)))
    .sort((x, y) => (inFight.has(x.id) ? 0 : 1) - (inFight.has(y.id) ? 0 : 1))
    .map((c) => {
      const hd = Math.max(0, Math.min(40, Math.floor(sheetOf(world, c.id).hd)));
      return { value: c.id, label: c.name, note: `${hd} HD: ${hd}d20 gp`, side: 'foe' as const, standing: st.dead.includes(c.id) ? ('dead' as const) : sheetOf(world, c.id).hp <= 0 ? ('down' as const) : ('up' as const) };
    });
  return [
    // 001 "Chases": STR on open ground, DEX on uneven, CON over hours; DC 11 for a 30' quarry, 1 per 5' faster or slower.
    action({
      id: 'chase',
      label: 'Chase',
      cost: "a check each (or the slowest for all): DC 11 against a 30' quarry, ±1 per 5'",
      command: 'osr.chase',
      fixed: {},
      target: party,
      choices: [
        { field: 'direction', label: 'The party', options: [{ value: 'pursue', label: 'pursues' }, { value: 'flee', label: 'flees' }] },
        { field: 'ground', label: 'Ground', options: [{ value: 'open', label: 'open and flat (STR)' }, { value: 'uneven', label: 'uneven (DEX)' }, { value: 'long', label: 'over hours or days (CON)' }] },
      ],
      numbers: [
        { field: 'speed', label: "The other side's speed (feet)", min: 0, max: 300, value: 30 },
        { field: 'dcAdjust', label: 'DC adjustment (lower to get into bow range)', min: -10, max: 10, value: 0 },
        { field: 'advantage', label: 'Advantage (net sources; negative for disadvantage)', min: -10, max: 10, value: 0 },
      ],
      flags: [{ field: 'together', label: 'As one group (the worst modifier rolls for all)', value: false }],
      texts: [{ field: 'damageOnFail', label: 'Damage to each who fails (dice, may be empty)', value: '', max: 20 }],
      // As one group there is one roll: one odds question with the whole group (the worst modifier rolls).
      odds: { query: 'osr.chaseOdds', args: { characterIds: [] }, pass: ['characterIds', 'ground', 'speed', 'dcAdjust', 'advantage', 'together'], togetherWhen: 'together' },
      ...nobody,
    }),
    // 001 "Treasure": gold recovered is XP, shared; inherited or given gold is none.
    action({
      id: 'treasure',
      label: 'Share treasure',
      cost: 'gold recovered is XP, shared evenly',
      command: 'osr.treasure',
      fixed: {},
      target: party,
      numbers: [{ field: 'gp', label: 'Gold pieces (gp)', min: 0, max: 10_000_000, value: 100 }],
      flags: [
        { field: 'earned', label: 'Recovered by adventure (XP); untick for gold given or inherited', value: true },
        // 001 "Treasure": coins weigh (500 to a load), so gold carried home is counted on each sharer's load.
        { field: 'intoPurses', label: "Into their purses (counted in each one's load)", value: true },
      ],
      ...nobody,
    }),
    action({
      id: 'magic-item',
      label: 'Capture a magic item',
      cost: 'its fair value as XP, once per item',
      command: 'osr.magicItem',
      fixed: {},
      target: party,
      numbers: [{ field: 'value', label: 'Fair value (gp)', min: 0, max: 10_000_000, value: 500 }],
      texts: [{ field: 'item', label: 'The item', value: '', max: 100 }],
      ...nobody,
    }),
    action({
      id: 'loot',
      label: "Roll a foe's carried loot",
      cost: '1d20 gp per hit die',
      command: 'osr.loot',
      fixed: {},
      target: { field: 'characterId', multiple: false, label: 'Foe', aim: 'foes', options: foes },
      ...(foes.length === 0 ? forbid('no foe with a stat block at the table: add one from the bestiary') : yes),
    }),
  ];
}

/** The GM's character tools (with `characterId`) or the party's (without). */
export const osrToolActions: Query = (world, args, viewer) => {
  if (viewer.role !== 'gm') return err('FORBIDDEN', 'only the GM opens these tools', 'characterId');
  const id = args['characterId'];
  if (id !== undefined && typeof id !== 'string') return err('INVALID_VALUE', 'characterId must be a character id', 'characterId');
  if (id === undefined) return ok(asJson({ combatantId: '', name: 'the party', onTurn: false, actions: partyTools(world) }));
  const ch = own(world.characters, id);
  if (ch === undefined) return err('NOT_FOUND', 'characterId: no such character', 'characterId');
  return ok(asJson({ combatantId: id, name: ch.name, onTurn: false, actions: characterTools(world, id) }));
};
