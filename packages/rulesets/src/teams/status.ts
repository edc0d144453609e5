// teams.status (issue 17): the fight's round and turn, the team whose turn it
// is, attacks waiting on their target's reaction, who must fortify, and each
// visible sheet's tracks in words (003 "Damage": harmed, bloodied...).
import { getEncounter, own } from '@tablekeeper/engine';
import { z } from 'zod';
import { clockStatus, clockStatusSchema, encounterStatus, encounterStatusSchema, statusModule } from '../status.js';
import { statusWords } from './reducers.js';
import { kit } from './rules.js';
import { getTeams } from './state.js';

export const teamsStatusModule = statusModule(
  'teams',
  'What the table shows: round and turn, the acting team, attacks awaiting a reaction, who must fortify, sheets in words',
  z.strictObject({
    encounter: encounterStatusSchema,
    clock: clockStatusSchema,
    actingTeam: z.string().nullable(),
    pendingAttacks: z.array(z.strictObject({ attackId: z.string(), attackerId: z.string().nullable().meta({ description: 'null: an attacker the asker cannot see' }), targetId: z.string() })),
    atRiskIds: z.array(z.string()),
    sheets: z.array(z.strictObject({ id: z.string(), name: z.string(), status: z.string() })),
  }),
  (world) => {
    const st = getTeams(world);
    const enc = getEncounter(world);
    const placement = enc.current === null ? undefined : own(enc.combatants, enc.current)?.placement;
    const team = placement !== null && typeof placement === 'object' && !Array.isArray(placement) ? placement['team'] : undefined;
    return {
      encounter: encounterStatus(world, kit),
      clock: clockStatus(world),
      actingTeam: team === undefined || team === null ? null : String(team),
      pendingAttacks: Object.entries(st.pending).map(([attackId, p]) => ({ attackId, attackerId: p.attacker === '' ? null : p.attacker, targetId: p.target })),
      atRiskIds: Object.keys(st.atRisk),
      // A player's view keeps only the words of a secret sheet (the projector wrote them); others are read in full.
      sheets: Object.entries(st.sheets).map(([id, s]) => {
        const shown = (s as unknown as { status?: unknown }).status;
        return { id, name: s.name, status: typeof shown === 'string' ? shown : statusWords(s) };
      }),
    };
  },
);
