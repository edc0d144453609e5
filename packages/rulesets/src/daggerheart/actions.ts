// daggerheart.actions: what the creature in the spotlight may do now. There
// is no action economy (000: the spotlight passes); a PC rolls what the GM
// asked for, makes an action roll of their own, or spends Hope to help an
// ally (the Help an Ally move), or spends Hope. Each roll comes with its duality odds.
import { SPOTLIGHT_ECONOMY, ok, own, type Result } from '@tablekeeper/engine';
import { action, actionsQuery, forbid, judge, othersInView, sideOf, standingIn, type Actor, type ActionOption, type TurnAction } from '../actions.js';
import { MAX_ADVANTAGE_SOURCES, MAX_DIFFICULTY, MAX_MODIFIER, MAX_SPEND, TRAITS } from './limits.js';
import { evasionOf, trackOf } from './rules.js';
import { hopeOf, requestsOf } from './selectors.js';
import { daggerheartSettings } from './settings.js';

const yes = { allowed: true, reason: null };

function build(a: Actor): Result<readonly TurnAction[]> {
  const ch = a.combatant.characterId === null ? undefined : own(a.world.characters, a.combatant.characterId);
  // An adversary in the spotlight attacks from its stat block (ADR 40); its other moves are the GM's (Fear, countdowns).
  if (ch !== undefined && ch.stats['adversary'] === true) return ok(a.viewer.role === 'gm' ? [adversaryAttackAction(a, ch.id, ch.name)] : []);
  if (ch === undefined || ch.kind !== 'pc') return ok([]);
  const out: TurnAction[] = [];
  for (const r of Object.values(requestsOf(a.world))) {
    if (r.characterId !== ch.id) continue;
    // "Roll Finesse: cut the rope bridge": the trait first, the player's words after; the cost says who asked.
    const trait = r.trait === '' ? '' : `${r.trait[0]!.toUpperCase()}${r.trait.slice(1)}`;
    const what = trait !== '' && r.label !== '' ? `${trait}: ${r.label}` : trait || r.label || 'the requested roll';
    out.push(
      action({
        id: `request:${r.id}`,
        label: `Roll ${what}`,
        cost: r.asked === true ? 'free' : 'free (the GM asked for it)',
        command: 'daggerheart.rollRequest',
        fixed: { requestId: r.id },
        odds: { query: 'daggerheart.rollOdds', args: { requestId: r.id }, pass: [] },
        ...judge(r.awaiting === true ? forbid('the GM has not set the difficulty yet') : yes),
      }),
    );
  }
  // The trait from the sheet, by name and value ("Agility +2"); the GM's difficulty is never the player's to type (ADR 50).
  const traits: ActionOption[] = TRAITS.map((t) => {
    const v = ch.stats[t];
    const n = typeof v === 'number' && Number.isInteger(v) ? v : 0;
    return { value: t, label: `${t[0]!.toUpperCase()}${t.slice(1)} ${n < 0 ? '−' : '+'}${Math.abs(n)}` };
  });
  const trait = { field: 'trait', label: 'Trait', options: traits };
  if (a.viewer.role === 'gm') {
    out.push(
      action({
        id: 'actionRoll',
        label: 'Action roll',
        cost: 'free',
        command: 'daggerheart.actionRoll',
        fixed: { characterId: ch.id },
        choices: [{ ...trait, options: [{ value: '', label: 'none' }, ...traits] }],
        numbers: [
          { field: 'bonus', label: 'Bonus', min: -MAX_MODIFIER, max: MAX_MODIFIER, value: 0 },
          { field: 'difficulty', label: 'Difficulty', min: 1, max: MAX_DIFFICULTY, value: 10 },
          { field: 'advantage', label: 'Advantage (− disadvantage)', min: -MAX_ADVANTAGE_SOURCES, max: MAX_ADVANTAGE_SOURCES, value: 0 },
        ],
        odds: { query: 'daggerheart.actionRollOdds', args: { characterId: ch.id }, pass: ['trait', 'bonus', 'difficulty', 'advantage'] },
      }),
    );
  } else {
    // The player picks the trait; the GM sets the difficulty (shown or hidden), and the roll then waits on the phone with its odds.
    out.push(
      action({
        id: 'askRoll',
        label: 'Action roll',
        cost: 'free; the GM sets the difficulty',
        command: 'daggerheart.askRoll',
        fixed: { characterId: ch.id },
        choices: [trait],
        texts: [{ field: 'label', label: 'What for (optional)', value: '', max: 80 }],
      }),
    );
  }
  out.push(againstAction(a, ch.id, a.viewer.role === 'gm' ? [{ value: '', label: 'none' }, ...traits] : traits));
  const allies: ActionOption[] = othersInView(a).flatMap((c) => {
    const other = c.characterId === null ? undefined : own(a.world.characters, c.characterId);
    return other === undefined || other.kind !== 'pc' || other.id === ch.id ? [] : [{ value: other.id, label: other.name, side: sideOf(a, c) }];
  });
  const cost = daggerheartSettings(a.world).helpCost;
  const hope = hopeOf(a.world, ch.id);
  out.push(
    action({
      id: 'helpAlly',
      label: 'Help an ally',
      cost: `${cost} Hope`,
      command: 'daggerheart.helpAlly',
      fixed: { helperId: ch.id },
      target: { field: 'targetId', multiple: false, aim: 'allies', options: allies },
      ...judge(allies.length === 0 ? forbid('no ally this view can see') : yes, hope < cost ? forbid(`${ch.name} has ${hope} Hope; helping costs ${cost}`) : yes),
    }),
  );
  // A player spends their own Hope from the phone (a GM review finding: only the engine command had it).
  out.push(
    action({
      id: 'spendHope',
      label: 'Spend Hope',
      cost: 'Hope, as many as spent',
      command: 'daggerheart.spendHope',
      fixed: { characterId: ch.id },
      numbers: [{ field: 'amount', label: 'Hope to spend', min: 1, max: Math.max(1, Math.min(MAX_SPEND, hope)), value: 1 }],
      texts: [{ field: 'reason', label: 'What for (optional)', value: '', max: 80 }],
      ...judge(hope < 1 ? forbid(`${ch.name} has no Hope to spend`) : yes),
    }),
  );
  return ok(out);
}

/**
 * An action roll against an adversary (ADR 79): the foes this viewer sees, each with its Difficulty where the
 * viewer may know it (the table's foe reveal, ADR 33); the command reads the Difficulty itself, so no one types it.
 */
function againstAction(a: Actor, id: string, traits: readonly ActionOption[]): TurnAction {
  const gm = a.viewer.role === 'gm';
  const slots = daggerheartSettings(a.world).hpSlots;
  const foes: ActionOption[] = othersInView(a).flatMap((c) => {
    const foe = c.characterId === null ? undefined : own(a.world.characters, c.characterId);
    if (foe === undefined || foe.stats['adversary'] !== true) return [];
    const hp = trackOf(foe.stats, 'hp', slots);
    const d = foe.stats['difficulty'];
    const known = typeof d === 'number' && Number.isInteger(d);
    const down = standingIn(c) === 'down' || (hp.slots > 0 && hp.marked >= hp.slots);
    // A defeated one says so beside its name (review 12 #8: it was listed unmarked); it sorts last, so never the default.
    const note = [down ? 'defeated' : '', known ? `Difficulty ${d}` : ''].filter((x) => x !== '').join(', ');
    return [{ value: foe.id, label: foe.name, side: sideOf(a, c), standing: down ? 'down' : 'up', ...(note !== '' ? { note } : {}), ...(!known && gm ? { refused: 'no Difficulty on its stat block' } : {}) }];
  });
  return action({
    id: 'rollAgainst',
    label: 'Action roll against an adversary',
    cost: 'free; its Difficulty',
    command: 'daggerheart.actionRoll',
    fixed: { characterId: id },
    target: { field: 'targetId', multiple: false, options: foes },
    choices: [{ field: 'trait', label: 'Trait', options: traits }],
    numbers: gm
      ? [
          { field: 'bonus', label: 'Bonus', min: -MAX_MODIFIER, max: MAX_MODIFIER, value: 0 },
          { field: 'advantage', label: 'Advantage (− disadvantage)', min: -MAX_ADVANTAGE_SOURCES, max: MAX_ADVANTAGE_SOURCES, value: 0 },
        ]
      : [],
    texts: [{ field: 'label', label: 'What for (optional)', value: '', max: 80 }],
    odds: { query: 'daggerheart.actionRollOdds', args: { characterId: id }, pass: gm ? ['targetId', 'trait', 'bonus', 'advantage'] : ['targetId', 'trait'] },
    ...judge(foes.length === 0 ? forbid('no adversary in the conflict that you can see') : yes),
  });
}

/** An adversary's advantage picker: none first (the form's default), then advantage and disadvantage (two d20, 000). */
const ADVERSARY_ADVANTAGE: readonly ActionOption[] = [
  { value: '0', label: 'none' },
  { value: '1', label: 'advantage (two d20, the higher)' },
  { value: '-1', label: 'disadvantage (two d20, the lower)' },
];

/** Attack: d20 + the stat block's attack against a PC's Evasion, its damage through the PC's thresholds (ADR 40). */
function adversaryAttackAction(a: Actor, id: string, name: string): TurnAction {
  // PCs first in the spotlight's order, the ones with an Evasion to roll against; the form starts on the first.
  const targets: ActionOption[] = othersInView(a).flatMap((c) => {
    const pc = c.characterId === null ? undefined : own(a.world.characters, c.characterId);
    if (pc === undefined || pc.kind !== 'pc') return [];
    const evasion = evasionOf(pc.stats);
    return [{ value: pc.id, label: pc.name, side: sideOf(a, c), ...(evasion !== null ? { note: `Evasion ${evasion}` } : { note: 'no Evasion on the sheet yet' }) }];
  });
  const damage = own(a.world.characters, id)?.stats['damage'];
  return action({
    id: 'adversaryAttack',
    label: 'Attack',
    cost: typeof damage === 'string' && damage.trim() !== '' ? `free (the spotlight): ${damage.trim()} damage on a hit` : 'free (the spotlight)',
    command: 'daggerheart.adversaryAttack',
    fixed: { attackerId: id },
    target: { field: 'targetId', multiple: false, options: targets },
    // In words, as the GM's Ask for a roll offers it (review 12 #14: a bare number box); sent as -1, 0 or 1.
    choices: [{ field: 'advantage', label: 'Advantage', numeric: true, options: ADVERSARY_ADVANTAGE }],
    // No Armor box: marking an Armor Slot is the hit PC's player's choice, asked when the hit lands (ADR 50).
    odds: { query: 'daggerheart.adversaryAttackOdds', args: { attackerId: id }, pass: ['targetId', 'advantage'] },
    ...judge(targets.length === 0 ? forbid(`no PC in the conflict for ${name} to attack`) : yes),
  });
}

export const daggerheartActions = actionsQuery(SPOTLIGHT_ECONOMY, build);
