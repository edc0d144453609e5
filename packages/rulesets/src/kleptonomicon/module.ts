// The Kleptonomicon module (004): the Episode as a state machine (Opening
// Credits, Freeplay, Encounter with Initiative / Main / Pause / Reward, Closing
// Credits), abilities gated by phase and paid in Beats, movement styles and
// Dash, improvised actions, experience and the between-Episode resets.
// Turn order, Beats and fleeting stacks live in the encounter kernel.
// The parts live beside it: context.ts (shared readers and guards),
// commands/ (one file per rule area), evolve.ts, reactions.ts, view.ts.
import { foeBasis, type EncounterKit, type Module } from '@tablekeeper/engine';
import { characterCommands } from './commands/characters.js';
import { attackOdds, combatCommands } from './commands/combat.js';
import { episodeCommands } from './commands/episode.js';
import { improvisationCommands } from './commands/improvisation.js';
import { turnCommands } from './commands/turns.js';
import { audienceOf, kleptoEventView } from './context.js';
import { kleptoReducers } from './evolve.js';
import { kleptoQueries } from './queries.js';
import { kleptoReactions } from './reactions.js';
import { KLEPTO_ID } from './state.js';
import { kleptoIdStatus, kleptoProject, kleptoProjectReads } from './view.js';

export { describePhase } from './context.js';

export function kleptonomiconModule(kit: EncounterKit): Module {
  const commands = { ...episodeCommands(kit), ...improvisationCommands(), ...characterCommands(kit), ...turnCommands(kit), ...combatCommands(kit) };
  const audience = Object.fromEntries(Object.keys(kleptoReducers).filter((t) => t.startsWith('kleptonomicon.')).map((t) => [t, audienceOf]));
  return { id: KLEPTO_ID, commands, reducers: kleptoReducers, reactions: kleptoReactions, project: kleptoProject, projectReads: kleptoProjectReads, idStatus: kleptoIdStatus, audience, eventView: kleptoEventView, eventViewBasis: (w) => foeBasis(w), queries: { ...kleptoQueries, 'kleptonomicon.attackOdds': attackOdds } };
}
