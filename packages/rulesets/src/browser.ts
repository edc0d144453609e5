// The browser entry (ADR 7): pure rule helpers the web app shows previews
// with (the OSR travel calculator, the Kleptonomicon's legal phase changes),
// so screen and server share one formula. Only files that import nothing at
// run time but each other belong here; commands and modules never do.
export {
  CADENCE_HOURS,
  LIGHT_SOURCES,
  TRAVEL_TURN_TABLE,
  effectiveTerrain,
  hourOfClock,
  overlandMiles,
  overwaterMiles,
  vesselOn,
  partyMiles,
  partyPace,
  quarterOf,
  returnDc,
  timeDiceFor,
  type Cadence,
  type Current,
  type LightLevel,
  type LightSourceKind,
  type OverlandInput,
  type Pace,
  type PartyPace,
  type Quarter,
  type Terrain,
  type ThreatBand,
  type Traveller,
  type TravellerPace,
  type Vessel,
  travellerPace,
} from './osr/exploration.js';
export { carriedLoad, encumbrance, mod, purseLoads, readSheet } from './osr/sheet.js';
export { getOsr, type LightSource, type OsrState } from './osr/state.js';
export { osrSettings } from './osr/settings.js';
export { statBlockLabel, statBlockValue } from './stat-block-labels.js';
export { ENCOUNTER_TRANSITIONS, EPISODE_TRANSITIONS, type EncounterPhase, type EpisodePhase } from './kleptonomicon/phases.js';
export { getKlepto } from './kleptonomicon/state.js';
export { EDGE_SAVE_LIMIT, kleptoSheetLine, kleptoSheetOf, type KleptoSheet } from './kleptonomicon/sheet.js';
export { getDaggerheart, hopeOf, pendingHitsOf, requestsOf, type DaggerheartState, type PendingHit, type RollRequest } from './daggerheart/selectors.js';
export { groupNames, groupNumberAfter } from './daggerheart/names.js';
export { daggerheartSettings, type DaggerheartSettings } from './daggerheart/settings.js';
export { armored, severityOf, thresholdsOf, trackOf, DIFFICULTY_FREE_ODDS, SEVERITY_WORDS, TRACKS, TRACK_WORDS, type Severity, type Thresholds, type Track, type TrackName } from './daggerheart/rules.js';
export { INITIATIVE_BANDS, initiativeOf, type InitiativeField, type InitiativeMethod, type InitiativeOrder } from './initiative.js';
export { clockRestsOf, restNoteOf, restsOf, restUnitNamesOf, type RestOption } from './rests.js';
export { startersOf, type StarterEntry, type Starters } from './starters.js';
export { rulesetTitleOf } from './titles.js';
export { actionsQueryOf, capabilitiesOf, hasPanel, type Capabilities, type Panel } from './capabilities.js';
export { oddsShapeOf, oddsShapesOf, type OddsShape } from './odds-shapes.js';
export { recoveryRowsOf, type RecoveryRow } from './36th-way/recoveries.js';
export { tswRangesFrom, type TswRange } from './36th-way/ranges.js';
export { teamsAwaiting, type TeamsAwaiting } from './teams/awaiting.js';
export { kleptoAwaiting } from './kleptonomicon/awaiting.js';
export { tswAwaiting, type TswAwaiting } from './36th-way/awaiting.js';
export { damageBoxCommand, damageBoxOffersNonlethal, damageTypesFor, type DamageBoxCommand, type DamageBoxTarget, type DamageTypeOption } from './damage-box.js';
export { countdownWordsOf, visibilityChip, VISIBILITY_WORDS, type CountdownKindId, type CountdownWords, type OutcomeId } from './countdown-words.js';
export { hasKeptSheet, keptSheetIdOf, keptSheetOf, keptSheetRulesOf, keptSheets, keptSheetTrack, SHEET_TRACK_FIELDS, type KeptSheet, type KeptSheetRules } from './sheets.js';
export { abilityAsEntered, keptSheetAsEntered, SHEET_PLAY_STATE } from './sheet-entry.js';
export { keptSheetCommandFor, keptSheetCommandFromText, keptSheetRemoveCommand, keptSheetTemplate, type KeptSheetCreature } from './sheet-commands.js';
// The actions answer's shape, for the web's panel (type-only: actions.ts imports the engine at run time).
export type { ActionOption, ActionNumber, ActionsAnswer, TurnAction } from './actions.js';
export { deadCharacters, fallChoiceWaiting, lifeFlags } from './life.js';
export { sheetNeedsOf } from './sheet-needs.js';
export { armingOf, type Arming, type WeaponRow } from './arming.js';
export { inviteNeedsOf, type InviteNeed } from './invite-needs.js';
export { BLOCK_ATTACK_ID, BLOCK_WEAPON_ID, diceOfText, foeSheetCommandOf, foeTargetOf, quickDice, quickStatsOf, QUICK_DICE_LIMITS, teamsFoeSheet, tswFoeSheet, type FoeTarget, type QuickStat } from './foe-sheets.js';
export { settingAllowedWords, settingChangedSentence, settingGroup, settingIsEditable, settingProblems, settingRefusal, settingSourceWords, settingTitle, settingValueWords } from './setting-words.js';
export { DISTANCE_NAME_MAX, MAX_STYLES, NAMED_STYLES, SIXTH_UNITS, STYLE_VARIANTS, sameSettingValue, styleUnits, styleWords, type SettingShape, type ShapeProblem } from './setting-shapes.js';
export type { SettingDef } from './ruleset.js';
