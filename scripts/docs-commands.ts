// npm run docs:commands: writes docs/commands/<ruleset>.md from the declarations
// (ADR 13), and the web client's list of relative commands (ADR 47).
// packages/cli/test/commands.test.ts fails when the committed files differ.
import { mkdirSync, writeFileSync } from 'node:fs';
import { rulesetIds } from '@tablekeeper/rulesets';
import { catalogueMarkdown, RELATIVE_COMMANDS_FILE, relativeCommandsModule } from '../packages/cli/src/catalogue.ts';

mkdirSync('docs/commands', { recursive: true });
for (const id of rulesetIds) {
  writeFileSync(`docs/commands/${id}.md`, catalogueMarkdown(id));
  console.log(`docs/commands/${id}.md`);
}
writeFileSync(RELATIVE_COMMANDS_FILE, relativeCommandsModule());
console.log(RELATIVE_COMMANDS_FILE);
