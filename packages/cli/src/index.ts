// @tablekeeper/cli: the `tablekeeper` command, importable for tests and extension.
export { main } from './main.js';
export { buildProgram, run, registrars, processIo, type Registrar } from './program.js';
export { type CliContext, type CliIo, EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT, reportDiceError, guarded } from './context.js';
export { registerRoll, describeRoll, describeNamedRoll, OUTCOME_LABELS, MAX_TIMES } from './commands/roll.js';
export { registerOdds, oddsExtensions, oddsJson, describeOdds, namedOddsJson, describeNamedOdds, histogram, type OddsExtension } from './commands/odds.js';
export { registerCommands } from './commands/commands.js';
export { catalogueOf, catalogueText, catalogueMarkdown, describeSchema, fieldsOf } from './catalogue.js';
