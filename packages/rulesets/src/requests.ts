// Each ruleset's answer to "which of my commands does this request stand for?"
// (issue 20, ADR 29). The kernel's damage box commands are the default; where
// the damage box already sends the ruleset's own damage (36th Way resistances,
// the teams' deflection and endurance before health, Daggerheart's thresholds),
// an approved request sends the same, so it lands exactly as the GM's click would.
import { combatantOfRequest, commandForCombatant, kernelRequestCommand, noActionRequests, ok, outsideFightRequest, own, type RequestCommand } from '@tablekeeper/engine';
import { getTsw } from './36th-way/state.js';
import { getTeams } from './teams/state.js';

const withSheet =
  (damageType: string, hasSheet: (w: Parameters<RequestCommand>[0], id: string) => boolean): RequestCommand =>
  (world, r) => {
    if (r.kind === 'action') return noActionRequests(world, r);
    const c = combatantOfRequest(world, r.characterId);
    if (!c.ok) return c;
    if (r.kind === 'damage' && hasSheet(world, c.value)) return ok({ type: damageType, target: c.value, amount: r.amount ?? 1 });
    return ok(commandForCombatant(r, c.value));
  };

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

const HOOKS: { readonly [rulesetId: string]: RequestCommand } = {
  osr,
  '36th-way': withSheet('36th-way.damage', (w, id) => own(getTsw(w).sheets, id) !== undefined),
  teams: withSheet('teams.damage', (w, id) => own(getTeams(w).sheets, id) !== undefined),
  daggerheart,
};

/** The request hook for a ruleset (the kernel's for the Kleptonomicon, whose damage box is the kernel's, in a fight or out: ADR 104). */
export function requestHookOf(rulesetId: string): RequestCommand {
  return own(HOOKS, rulesetId) ?? kernelRequestCommand;
}
