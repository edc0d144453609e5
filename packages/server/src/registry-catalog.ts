// The default catalog: the five rule systems from the @tablekeeper/rulesets registry.
import { createTableFor, engineFor, rulesetIds, rulesetInfo, sheetSchemaFor } from '@tablekeeper/rulesets';
import type { RulesetCatalog } from './rulesets.js';

export function registryCatalog(): RulesetCatalog {
  return {
    ids: () => rulesetIds,
    info: (id) => rulesetInfo(id) as unknown as { [key: string]: unknown } | null,
    engineFor,
    createTable: (id, input) => createTableFor(id, input),
    sheet: (id) => sheetSchemaFor(id),
    workerModule: '@tablekeeper/rulesets',
  };
}
