// `tablekeeper commands` and the generated docs/commands (ADR 13).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BATCH, REDO, UNDO } from '@tablekeeper/engine';
import { engineFor, rulesetIds } from '@tablekeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { catalogueMarkdown } from '../src/index.js';
import { RELATIVE_COMMANDS_FILE, relativeCommandsModule } from '../src/catalogue.js';
import { cli } from './run-cli.js';

describe('tablekeeper commands', () => {
  it('--json lists every command and query of every ruleset, engine commands under each ruleset that has them', async () => {
    const r = await cli('commands', '--json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { ruleset: string; type: string; kind: string; summary: string; who: string; schema: { type: string } }[];
    for (const id of rulesetIds) {
      const engine = engineFor(id)!;
      const handled = [UNDO, REDO, BATCH, ...engine.modules.flatMap((m) => [...Object.keys(m.commands ?? {}), ...Object.keys(m.queries ?? {})])];
      expect(list.filter((c) => c.ruleset === id).map((c) => c.type).sort(), id).toEqual([...handled].sort());
    }
    expect(list.filter((c) => c.type === 'clock.advance').map((c) => c.ruleset)).toEqual([...rulesetIds]);
    // Relative commands (ADR 47) say so; undo and redo are listed under every ruleset.
    expect(list.filter((c) => c.type === 'history.undo').map((c) => [c.ruleset, (c as { relative?: boolean }).relative])).toEqual(rulesetIds.map((id) => [id, true]));
    expect(list.filter((c) => (c as { relative?: boolean }).relative === true && c.ruleset === 'daggerheart').map((c) => c.type).sort()).toEqual(['daggerheart.passSpotlight', 'encounter.advance', 'encounter.endTurn', 'history.redo', 'history.undo']);
    // A relative command may name what it acts on (ADR 58): only End turn, by its id, a field of its own payload; only relative commands do.
    const named = list.filter((c) => (c as { namedBy?: string }).namedBy !== undefined) as unknown as { ruleset: string; type: string; relative?: boolean; namedBy: string; schema: { properties?: object } }[];
    expect(named.map((c) => [c.ruleset, c.type, c.namedBy])).toEqual(rulesetIds.map((id) => [id, 'encounter.endTurn', 'id']));
    for (const c of named) {
      expect(c.relative).toBe(true);
      expect(Object.keys(c.schema.properties ?? {})).toContain(c.namedBy);
    }
    for (const c of list) {
      expect(Object.keys(c).slice(0, 6)).toEqual(['ruleset', 'type', 'kind', 'summary', 'who', 'schema']);
      expect(c.schema.type).toBe('object');
    }
  });

  it('--json marks the teams sheet aliases deprecated, with their replacement and the date after which they may be refused (ADR 62)', async () => {
    const r = await cli('commands', '--json');
    const list = JSON.parse(r.out) as { ruleset: string; type: string; kind: string; deprecated?: { replacement: string; removedAfter: string } }[];
    const deprecated = list.filter((c) => c.deprecated !== undefined);
    expect(deprecated.map((c) => [c.ruleset, c.type, c.deprecated])).toEqual([
      ['teams', 'teams.setSheet', { replacement: 'character.sheet.set', removedAfter: '2027-06-30' }],
      ['teams', 'teams.removeSheet', { replacement: 'character.sheet.remove', removedAfter: '2027-06-30' }],
    ]);
    for (const c of deprecated) {
      // The replacement is a command of the same ruleset, and the date is a real calendar day.
      expect(list.some((o) => o.ruleset === c.ruleset && o.type === c.deprecated!.replacement && o.kind === 'command' && o.deprecated === undefined)).toBe(true);
      expect(new Date(`${c.deprecated!.removedAfter}T00:00:00Z`).toISOString().slice(0, 10)).toBe(c.deprecated!.removedAfter);
    }
    const text = await cli('commands', 'teams');
    expect(text.out).toContain("teams.setSheet [gm]: Deprecated: use character.sheet.set. Set a combatant's sheet (deprecated: use character.sheet.set; may be refused after 2027-06-30)");
    expect(catalogueMarkdown('teams')).toContain('Deprecated: send `character.sheet.remove` instead; it keeps working until 2027-06-30, and a version released after that date may refuse it.');
    expect(catalogueMarkdown('osr')).not.toContain('Deprecated: send');
  });

  it('RULESET narrows the list; the text form names who may issue each and its fields', async () => {
    const j = await cli('commands', 'kleptonomicon', '--json');
    expect(new Set((JSON.parse(j.out) as { ruleset: string }[]).map((c) => c.ruleset))).toEqual(new Set(['kleptonomicon']));
    const t = await cli('commands', 'osr');
    expect(t.code).toBe(0);
    expect(t.out).toContain('osr.check [own-character]: Roll a check for a character against a DC');
    expect(t.out).toContain('      difficulty: integer 1..40');
    expect(t.out).toContain('osr.attackOdds (query) [anyone]');
  });

  it('refuses an unknown ruleset with exit code 2, naming the known ones', async () => {
    const r = await cli('commands', 'chess');
    expect(r.code).toBe(2);
    expect(r.err).toContain('no ruleset "chess" (known: daggerheart');
    expect(r.out).toBe('');
  });
});

describe('docs/commands', () => {
  it.each(rulesetIds)('docs/commands/%s.md is what npm run docs:commands writes today (run it when this fails)', (id) => {
    const file = fileURLToPath(new URL(`../../../docs/commands/${id}.md`, import.meta.url));
    expect(readFileSync(file, 'utf8')).toBe(catalogueMarkdown(id));
  });

  it("the web client's list of relative commands is what npm run docs:commands writes today (ADR 47)", () => {
    const file = fileURLToPath(new URL(`../../../${RELATIVE_COMMANDS_FILE}`, import.meta.url));
    expect(readFileSync(file, 'utf8')).toBe(relativeCommandsModule());
    expect(relativeCommandsModule()).toContain("  'history.undo',\n");
    expect(relativeCommandsModule()).toContain("export const NAMED_BY: { readonly [type: string]: string } = {\n  'encounter.endTurn': 'id',\n};");
  });
});
