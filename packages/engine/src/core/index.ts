// Public API of engine/core: the contract, the engine, the core module and helpers for modules.
export type * from './types.js';
export { ok, err, ruleError, ErrorCode } from './result.js';
export { TransactionLog, SeqStack, UNDO_CHECKPOINT_EVERY } from './history-log.js';
export { LogWindow, logExtension, logWindowOf, noteExtension, seatStepsLast, windowAppended, windowGrowth, windowOf, windowWithoutFirst, type LogGrowth } from './view-cache.js';
export { createEngine, commandWords, genesisWorld, emptyTable, ownTable, MAX_REACTION_DEPTH, MAX_TRANSACTION_EVENTS, UNDO, REDO, BATCH } from './engine.js';
export { coreModule, CORE_ID, CORE_LABELS, MAX_SEATS, MAX_CHARACTERS, MAX_STATS, fictionTime } from './module.js';
export { mintId, claimId } from './ids.js';
export { appendLog, appendOrComplete, openSentence, type LineCompletion, lastLineOfTransaction, replaceLastLog, stampLog, PENDING_TX, LOG_LIMIT_SETTING, DEFAULT_LOG_LIMIT, MAX_LOG_TEXT, type LogInput } from './log.js';
export { canSee, knowsExists, audienceAllows, audienceFor, seatAudience, AUDIENCE_ALL, AUDIENCE_GM, VISIBILITIES } from './visibility.js';
export { CLOCK_UNITS, MAX_CLOCK_COUNT, MAX_CLOCK_SECONDS, emptyClock, isClockUnit, clockAdvanced, advanceClock } from './clock.js';
export { readString, readInt, readEnum, readObject, isJson, checkCommand, MAX_COMMAND_BYTES, MAX_COMMAND_DEPTH, MAX_NAME, type Read } from './validate.js';
export { MAX_ROLL_NOTATION, MAX_ROLL_LABEL, TABLE_ROLL_LIMITS, tableRollCost, rolledCost, namedDice, NAMED_OUTCOME_WORDS, type RollAudience, type LoggedDie } from './roll.js';
export { scenario, type Scenario, type ScenarioOptions } from './testing.js';
export { sayCommand, type CommandWords, type NameOf } from './undo-words.js';
export {
  declareCommand,
  declareQuery,
  defineCommand,
  handlerOf,
  type TypedHandler,
  defineQuery,
  catalogOf,
  withCatalog,
  catalogEntries,
  namedRelativeCommands,
  relativeCommands,
  type CatalogEntry,
  type Deprecation,
  parsePayload,
  issueError,
  payloadJsonSchema,
  resultJsonSchema,
  characterId,
  combatantId,
  countdownId,
  seatId,
  text,
  int,
  json,
  WHO,
  mayAsk,
  type Who,
  type Declaration,
  type CommandDeclaration,
  type QueryDeclaration,
  type Catalog,
  type DefinedCommand,
  type PayloadOf,
  type InputOf,
  upcastPayload,
  type Renamed,
  type Merged,
} from './catalog.js';
export { reducersOf, reactionOf, stored, asJson, fromJson, memberOf, sameAudience, audiencesOf, eventViewsOf, type Evolve, type EventOf, type TypedEvent, type JsonShaped, type Audiences, type EventViews } from './events.js';
export { own } from './own.js';
export { controls } from './controls.js';
export { moduleStatesOf } from './module-states.js';
export { createUpcaster, withUpcasts, type Upcasts, type Upcaster } from './upcast.js';
export { defineSheet, sheetModule, sheetJsonSchema, SHEET_GET, SHEET_MODULE_ID, SHEET_REMOVE, SHEET_SET, SHEET_SET_EVENT, type SheetModel, type SheetSpec, type SheetEvent } from './sheet.js';
export type { CoreEvent, DiceRolled } from './events-core.js';
