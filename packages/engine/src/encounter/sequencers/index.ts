// Only the turn orders and their specific helpers; generic internals stay private.
export { nextFromTiers, sideSurprise, tierRank, type Tier } from './common.js';
export { scoreSequencer, scoreOrder, type ScoreOptions } from './score.js';
export { bandsSequencer, bandTiers, bandOf, isBand, BANDS, type Band, type BandsOptions } from './bands.js';
export { teamsSequencer, teamOf } from './teams.js';
export { edgeSaveSequencer, groupByCreatureType, edgeModifier, kleptoEdgeSave, type EdgeSaveOptions, type EdgeSaveRoll, type EdgeSaveRoller } from './edge-save.js';
export { spotlightSequencer, spotlightTokens, tokensLeft, MAX_ACTION_TOKENS, type SpotlightOptions, type SpotlightTokens } from './spotlight.js';
