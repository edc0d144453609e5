// Each ruleset's answer to "which of my commands does this request stand for?"
// (issue 20, ADR 29). The kernel's damage box commands are the default; where
// the damage box already sends the ruleset's own damage (36th Way resistances,
// the teams' deflection and endurance before health, Daggerheart's thresholds),
// an approved request sends the same, so it lands exactly as the GM's click would.
import { combatantOfRequest, commandForCombatant, err, ErrorCode, kernelRequestCommand, noActionRequests, getEncounter, noRecoveryRequests, ok, outsideFightRequest, own, RECOVERIES_AFTER_FIGHT, type Command, type RequestCommand, type Result } from '@tablekeeper/engine';
import { MAX_REST_RECOVERIES } from './36th-way/declarations.js';
import { damageBoxCommand } from './damage-box.js';
import { hasKeptSheet, keptSheetIdOf } from './sheets.js';

// The 36th Way and teams keep HP on their own sheets, which outlive a fight (the fight reads the same sheet), so a
// request lands as the GM's damage box would: in a fight or between them (ADR 110), healing through the sheet's own
// rule too (002's named healing, teams' health then endurance), never on a combatant number nobody reads.
const onKeptSheet =
  (sheetTitle: string): RequestCommand =>
  (world, r) => {
    if (r.kind === 'action') return noActionRequests(world, r);
    if (r.kind === 'recoveries') return noRecoveryRequests(world, r);
    const c = combatantOfRequest(world, r.characterId);
    if (c.ok) return r.kind !== 'condition' && hasKeptSheet(world, c.value) ? boxed(world, c.value, r) : ok(commandForCombatant(r, c.value));
    // Between fights: the character's own sheet (none yet is said in words); a hidden combatant still answers "not in the fight".
    const sheetId = keptSheetIdOf(world, r.characterId);
    return outsideFightRequest(world, r, () => (sheetId === null ? noSheetYet(world, r.characterId, sheetTitle) : boxed(world, sheetId, r)), () => true) ?? c;
  };

/** A request for a character whose kept sheet the GM has not filled in yet, refused in words. */
function noSheetYet(world: Parameters<RequestCommand>[0], characterId: string, sheetTitle: string): Result<never> {
  const name = own(world.characters, characterId)?.name ?? 'that character';
  return err(ErrorCode.INVALID_VALUE, `${name} has no ${sheetTitle} yet: the GM fills it in first`, 'characterId');
}

/** The GM's damage box's command for the request's amount on sheet `id`; its refusal ("Nothing to heal…") in words. */
function boxed(world: Parameters<RequestCommand>[0], id: string, r: Parameters<RequestCommand>[1]): Result<Command> {
  const box = damageBoxCommand(world, { combatantId: id, characterId: r.characterId }, r.kind === 'heal' ? 'heal' : 'damage', r.amount ?? 1);
  return box.ok ? ok(box.value) : err(ErrorCode.INVALID_VALUE, box.message, 'amount');
}

// 000: damage is judged against the character's thresholds and marks HP; healing clears HP slots. Neither needs a fight.
// 000 "Action Rolls": a declared action is rolled with the Duality Dice against the difficulty the GM sets.
const daggerheart: RequestCommand = (world, r, answer) => {
  if (r.kind === 'action')
    return ok({
      type: 'daggerheart.actionRoll',
      characterId: r.characterId,
      difficulty: answer.difficulty ?? 1,
      ...(r.bonus === undefined ? {} : { bonus: r.bonus }),
      ...(r.advantage === undefined ? {} : { advantage: r.advantage }),
      label: (r.action ?? '').slice(0, 80),
    });
  if (r.kind === 'damage') return ok({ type: 'daggerheart.takeDamage', characterId: r.characterId, amount: r.amount ?? 1 });
  if (r.kind === 'heal') return ok({ type: 'daggerheart.markTrack', characterId: r.characterId, track: 'hp', amount: -Math.min(30, r.amount ?? 1), reason: 'healing the GM approved' });
  return kernelRequestCommand(world, r, answer);
};

// OSR outside a fight (ADR 104): damage and healing as the GM's damage box sends them there, so 0 HP makes one dying (001).
const osr: RequestCommand = (world, r, answer) => {
  if (r.kind !== 'action' && !combatantOfRequest(world, r.characterId).ok) {
    const out = outsideFightRequest(world, r, (kind, amount) => ({ type: kind === 'damage' ? 'osr.damage' : 'osr.heal', targetId: r.characterId, amount }));
    if (out !== null) return out;
  }
  return kernelRequestCommand(world, r, answer);
};

// 002 "Quick Rest": a player's choice of recoveries to spend, approved by the GM (ADR 110); the rest's other parts stay the GM's Quick rest.
const tswSheetHook = onKeptSheet('36th Way sheet');
const tsw: RequestCommand = (world, r, answer) => {
  if (r.kind !== 'recoveries') return tswSheetHook(world, r, answer);
  // As the quick rest itself: none while a fight runs (whoever it holds, so a hidden combatant is not revealed).
  if (getEncounter(world).active) return err(ErrorCode.INVALID_VALUE, RECOVERIES_AFTER_FIGHT, 'kind');
  const sheetId = keptSheetIdOf(world, r.characterId);
  if (sheetId === null) return noSheetYet(world, r.characterId, '36th Way sheet');
  const count = r.amount ?? 1;
  if (count > MAX_REST_RECOVERIES) return err(ErrorCode.INVALID_VALUE, `at most ${MAX_REST_RECOVERIES} recoveries in one ask`, 'amount');
  return ok({ type: '36th-way.restRecoveries', characterId: sheetId, count });
};

const HOOKS: { readonly [rulesetId: string]: RequestCommand } = {
  osr,
  '36th-way': tsw,
  teams: onKeptSheet('sheet'),
  daggerheart,
};

/** The request hook for a ruleset (the kernel's for the Kleptonomicon, whose damage box is the kernel's, in a fight or out: ADR 104). */
export function requestHookOf(rulesetId: string): RequestCommand {
  return own(HOOKS, rulesetId) ?? kernelRequestCommand;
}
