// The team game's encounter rules: the kernel's team alternation and
// three-actions-plus-a-reaction economy (003 "Initiative and Rounds",
// "Actions in Combat"), our conditions for Guard, Seek Cover and prone, and
// "unable to act" read from the sheet (unconscious or dead).
import type { ConditionDef, EncounterRules } from '@tablekeeper/engine';
import { encounterKit, teamsEncounter, own } from '@tablekeeper/engine';
import { getTeams, TEAMS_ID } from './state.js';

export const TEAMS_CONDITIONS: readonly ConditionDef[] = [
  // Guard: +1 to all defences and defence tests until your next turn.
  { id: 'guarding', name: 'Guarding', stacking: 'refresh', effects: { defence: 1 } },
  // Seek Cover: ranged attackers have disadvantage until your next turn.
  { id: 'in-cover', name: 'In cover', stacking: 'refresh', effects: { 'against.rangedAttack.advantage': -1 } },
  // Drop Prone (and Resuscitate): ranged attackers at disadvantage, melee attackers at advantage, until you stand up.
  { id: 'prone', name: 'Prone', stacking: 'refresh', effects: { 'against.rangedAttack.advantage': -1, 'against.meleeAttack.advantage': 1 } },
];

export const teamsRules: EncounterRules = {
  ...teamsEncounter(),
  // 003: each round stands for about six seconds (ADR 44: the clock moves by it, the fight's last round included).
  secondsPerRound: 6,
  conditions: TEAMS_CONDITIONS,
  canActReads: [`ext.${TEAMS_ID}`],
  canAct(world, c) {
    const s = own(getTeams(world).sheets, c.id);
    if (s === undefined) return true;
    // In a player's view (where the kernel computes their on-deck combatant) a secret sheet is only its status words.
    const status = (s as { readonly status?: unknown }).status;
    if (typeof s.conscious !== 'boolean' && typeof status === 'string') return status !== 'dead' && !status.split(', ').includes('unconscious');
    return s.conscious && !s.dead;
  },
};

export const kit = encounterKit(teamsRules);
