// The per-system turn order and economy each ruleset starts from. Rulesets
// add their condition catalogues and hooks: encounterModule({ ...base, conditions, saveRoll }).
import { BANDS_ECONOMY, BEATS_ECONOMY, OSR_ECONOMY, SPOTLIGHT_ECONOMY, TEAMS_ECONOMY } from './economies.js';
import { bandsSequencer } from './sequencers/bands.js';
import { edgeSaveSequencer, type EdgeSaveOptions } from './sequencers/edge-save.js';
import { scoreSequencer } from './sequencers/score.js';
import { spotlightSequencer, type SpotlightOptions } from './sequencers/spotlight.js';
import { teamsSequencer } from './sequencers/teams.js';
import type { EconomyDef, Sequencer } from './types.js';

export interface EncounterBase {
  readonly sequencer: Sequencer;
  readonly economy: EconomyDef;
}

/** 001: DEX score order, active / movement / quick. */
export const osrEncounter = (): EncounterBase => ({ sequencer: scoreSequencer({ stat: 'dex' }), economy: OSR_ECONOMY });
/** 002: initiative bands, standard / move / quick / interrupt. */
export const bandsEncounter = (): EncounterBase => ({ sequencer: bandsSequencer(), economy: BANDS_ECONOMY });
/** 003: team alternation, three actions and a reaction. */
export const teamsEncounter = (): EncounterBase => ({ sequencer: teamsSequencer(), economy: TEAMS_ECONOMY });
/** 004: Edge Save groups (default roller: the Kleptonomicon Test), two Beats. */
export const kleptonomiconEncounter = (opts: EdgeSaveOptions = {}): EncounterBase => ({ sequencer: edgeSaveSequencer(opts), economy: BEATS_ECONOMY });
/** 000 (Daggerheart): the spotlight moves at the GM's choice; no action economy (ADR 14). */
export const daggerheartEncounter = (opts: SpotlightOptions = {}): EncounterBase => ({ sequencer: spotlightSequencer(opts), economy: SPOTLIGHT_ECONOMY });
