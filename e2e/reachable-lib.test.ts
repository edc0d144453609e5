// Issue 20: "a rule the engine knows but the screen cannot reach is not done".
// For every ruleset, each command of its catalogue is sent by a control in
// packages/web/src, or offered by an engine actions query the web renders (a
// TurnAction's `command`), or listed below with why not. The dev-only "any
// command" panel and the generated relative-commands list do not count.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { catalogueOf } from '../packages/cli/src/catalogue.ts';
import { rulesetIds } from '@tablekeeper/rulesets';

const ROOT = path.resolve(import.meta.dirname, '..');

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p, ext) : ext.test(name) ? [p] : [];
  });
}

/** Files whose mention of a command is no control a GM or player clicks: the dev-only panel, generated lists, words for the log and undo. */
const NOT_A_CONTROL = new Set(['packages/web/src/components/Commands.tsx', 'packages/web/src/net/relative-commands.ts', 'packages/rulesets/src/undo-words.ts']);

/** The web's own files and the rulesets' browser entry with what it imports (the damage box, rests and sheet commands are built there). */
function browserFiles(): string[] {
  const seen = new Set<string>();
  const queue = [...filesUnder(path.join(ROOT, 'packages/web/src'), /\.tsx?$/), path.join(ROOT, 'packages/rulesets/src/browser.ts')];
  while (queue.length > 0) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    if (!f.startsWith(path.join(ROOT, 'packages/rulesets/src'))) continue;
    for (const m of readFileSync(f, 'utf8').matchAll(/from '(\.[^']+)'/g)) queue.push(path.resolve(path.dirname(f), m[1]!.replace(/\.js$/, '.ts')));
  }
  return [...seen].filter((f) => !NOT_A_CONTROL.has(path.relative(ROOT, f).split(path.sep).join('/')));
}

const webText = browserFiles()
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
// The actions queries' entries: `command: 'osr.retreat'` in a TurnAction the actor's list (or a tool list) renders.
const actionText = filesUnder(path.join(ROOT, 'packages/rulesets/src'), /\.ts$/)
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

const quoted = (type: string): RegExp => new RegExp(`['"\`]${type.replace(/[.]/g, '\\.')}['"\`]`);
// Also `const command = cond ? 'teams.react' : 'teams.act'` (an entry whose command is picked per row), on one line.
const asAction = (type: string): RegExp => new RegExp(`command(?::|\\s*=)\\s*[^,;\\n]*?['"\`]${type.replace(/[.]/g, '\\.')}['"\`]`);

function reached(type: string): boolean {
  return quoted(type).test(webText) || asAction(type).test(actionText);
}

/** Commands with no control of their own, each with why. "owed (issue 20)": not reachable yet, being made so. */
const NOT_REACHED: { readonly [type: string]: string } = {
  'encounter.rest': "replaced by each ruleset's own rests (ADR 44): rests.ts offers osr.rest, 36th-way.quickRest/fullRest, Daggerheart's Rest panel; teams and the Kleptonomicon have no timed rest",
  'kleptonomicon.improvisedManeuver': "replaced by kleptonomicon.attack with maneuver (ADR 51), which the actions list's 'Basic Attack with an improvised maneuver' entry sends with its odds and damage; kept for old clients and stored tables",
  'osr.setLoad': 'reached through character.sheet.set: load is a field of the sheet form',
  'osr.setSheet': 'reached through character.sheet.set: the sheet editor writes the same osr.sheetSet event',
  '36th-way.restRecoveries': "reached by the phone's quick-rest ask (Requests.tsx sends request.make of kind recoveries): the GM's Approve runs it (rulesets/src/requests.ts, ADR 110)",
  'seat.add': "reached by the Invite panel's Invite button: it posts the typed name to the server's invite route, which sends seat.add (packages/server/src/tables.ts)",
  'teams.removeSheet': 'deprecated alias of character.sheet.remove (teams declarations), kept for old scripts',
  'teams.setSheet': 'deprecated alias of character.sheet.set, which the sheet form sends',
};

describe('every command is reachable by clicking (issue 20)', () => {
  const all = new Set<string>();
  for (const id of rulesetIds) {
    it(`${id}: each command has a control, an actions-query entry or a listed reason`, () => {
      const types = [...new Set((catalogueOf(id) ?? []).filter((e) => e.kind === 'command').map((e) => e.type))];
      expect(types.length).toBeGreaterThan(0);
      types.forEach((t) => all.add(t));
      const missing = types.filter((t) => !reached(t) && NOT_REACHED[t] === undefined);
      expect(missing, `no control reaches these ${id} commands; add one, or list each in NOT_REACHED with why`).toEqual([]);
    });
  }
  it('the allow-list holds no stale entry: each is a command of some ruleset and still unreached', () => {
    for (const id of rulesetIds) (catalogueOf(id) ?? []).filter((e) => e.kind === 'command').forEach((e) => all.add(e.type));
    const stale = Object.keys(NOT_REACHED).filter((t) => !all.has(t) || reached(t));
    expect(stale, 'these NOT_REACHED entries are reached now or no longer exist: remove them').toEqual([]);
  });
});
