// The default catalog: the five rule systems from @tablekeeper/rulesets.
import type { RulesetCatalog } from './rulesets.js';

export function registryCatalog(): RulesetCatalog {
  throw new Error('the rulesets registry has not landed yet');
}
