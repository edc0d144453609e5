// The web app's OSR exploration and Kleptonomicon episode helpers, checked in
// Node against the real rulesets run through the engine: the travel
// calculator must say what `osr.travel` then does, and every step the episode
// bar offers must be one the server accepts and land where the bar says.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { scenario, seededRng, type Json, type LogEntry, type World } from '@tablekeeper/engine';
import { kleptonomicon, osr } from '@tablekeeper/rulesets';
import { DEFAULT_TRAVEL, formatDuration, formatMiles, hourShown, lastBatch, lightsOf, threatRow, travelCommand, travelPreview, type TravelInput } from '../packages/web/src/lib/osr.ts';
import { beatsOf, episodeOf, nextSteps, phaseLabel } from '../packages/web/src/lib/episode.ts';

const HOUR = 3600;

function osrTable(seed = 3) {
  return scenario(osr.ruleset.modules, { rng: seededRng(seed), rulesetId: 'osr' });
}

function addPc(s: ReturnType<typeof osrTable>, name: string, stats: { [k: string]: Json }): string {
  const tx = s.run({ type: 'character.add', name, kind: 'pc', stats });
  return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
}

const milesOf = (s: ReturnType<typeof osrTable>, cmd: ReturnType<typeof travelCommand>): number => {
  const tx = s.run(cmd as { type: string; [k: string]: Json });
  const ev = tx.kind === 'command' ? tx.events.find((e) => e.type === 'osr.traveled') : undefined;
  const miles = ev?.['milesPerDay'];
  if (typeof miles !== 'number') throw new Error('osr.travel did not report milesPerDay');
  return miles;
};

describe('the hour as time dice', () => {
  it('shows 07:00 as a six and a one in the morning (001 "Timekeeping")', () => {
    expect(hourShown(7 * HOUR)).toEqual({ hour: 7, label: '07:00', dice: [6, 1], quarter: 'morning' });
  });
  it('every hour of a day: the faces sum to the hour (midnight is four sixes) and follow the clock across days', () => {
    for (let day = 0; day < 3; day++) {
      for (let h = 0; h < 24; h++) {
        const shown = hourShown(day * 24 * HOUR + h * HOUR + 59 * 60);
        expect(shown.hour).toBe(h);
        expect(shown.dice.reduce((a, b) => a + b, 0)).toBe(h === 0 ? 24 : h);
        expect(shown.dice.every((f) => f >= 1 && f <= 6)).toBe(true);
        expect(shown.quarter).toBe(osr.quarterOf(h));
      }
    }
  });
});

describe('durations and light sources', () => {
  it('formats what is left at a glance', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(50 * 60)).toBe('50 min');
    expect(formatDuration(HOUR)).toBe('1 h');
    expect(formatDuration(2 * HOUR + 5 * 60)).toBe('2 h 05 min');
    expect(formatDuration(-10)).toBe('0 s');
  });

  it('reads torches and lanterns from the ruleset state: fuel left burning and doused, burning first', () => {
    const s = osrTable();
    const pc = addPc(s, 'Brannoc', { maxHp: 8 });
    s.run({ type: 'osr.lightSource', kind: 'lantern', owner: pc });
    s.run({ type: 'osr.lightSource', kind: 'torch' });
    s.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 600 });
    const [lantern] = Object.values(osr.getOsr(s.world).sources).filter((x) => x.kind === 'lantern');
    s.run({ type: 'osr.douse', sourceId: lantern!.id });
    s.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 600 });
    const lights = lightsOf(s.world);
    expect(lights.map((l) => [l.kind, l.burning, l.remaining, l.owner])).toEqual([
      ['torch', true, HOUR - 1200, null],
      ['lantern', false, 3 * HOUR - 600, 'Brannoc'],
    ]);
    expect(lights[0]!.fraction).toBeCloseTo(40 / 60);
    expect(lights[1]!.fraction).toBeCloseTo(170 / 180);
    // Past its hour the server burns the torch out; the panel has nothing left to show for it.
    s.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: HOUR });
    expect(lightsOf(s.world).map((l) => l.kind)).toEqual(['lantern']);
  });
});

describe('results from the log', () => {
  const entry = (tx: number, kind: string, text: string): LogEntry => ({ tx, kind, text, audience: { kind: 'all' } });
  const world = (log: LogEntry[]) => ({ log }) as unknown as World;

  it('takes the newest transaction\'s entries of one kind, in order', () => {
    const w = world([entry(1, 'osr.returnRolled', 'old'), entry(2, 'osr.returnRolled', 'a'), entry(2, 'osr.hpChanged', 'x'), entry(2, 'osr.returnRolled', 'b'), entry(3, 'osr.timeRolled', 't')]);
    expect(lastBatch(w, 'osr.returnRolled').map((e) => e.text)).toEqual(['a', 'b']);
    expect(lastBatch(w, 'osr.timeRolled').map((e) => e.text)).toEqual(['t']);
    expect(lastBatch(w, 'osr.traveled')).toEqual([]);
    expect(lastBatch({} as World, 'osr.traveled')).toEqual([]);
  });

  it('names the travel turn table row for the band the server rolled', () => {
    expect(threatRow('terrible')).toMatchObject({ range: '1' });
    expect(threatRow('soon')).toMatchObject({ range: '2-10' });
    expect(threatRow('worsens')).toMatchObject({ range: '11-19' });
    expect(threatRow('nothing')).toMatchObject({ range: '20' });
    expect(threatRow(null)).toBeNull();
    const s = osrTable(11);
    s.run({ type: 'osr.travelTurn' });
    const last = lastBatch(s.world, 'osr.travelTurnRolled');
    expect(last).toHaveLength(1);
    const natural = Number(/→ (\d+),/.exec(last[0]!.text)?.[1]);
    expect(threatRow(osr.getOsr(s.world).lastThreat)?.band).toBe(osr.travelTurnRow(natural).band);
  });
});

describe('the travel calculator', () => {
  it('the text\'s example: a +2 STR PC makes 12 miles open, 6 difficult, 3 harsh; dim light counts as difficult', () => {
    const s = osrTable();
    addPc(s, 'Strong', { str: 14, maxHp: 8 });
    const at = (patch: Partial<TravelInput>) => travelPreview(s.world, { ...DEFAULT_TRAVEL, ...patch }).perDay;
    expect(at({ terrain: 'open' })).toBe(12);
    expect(at({ terrain: 'difficult' })).toBe(6);
    expect(at({ terrain: 'harsh' })).toBe(3);
    expect(at({ terrain: 'open', light: 'dim' })).toBe(6);
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, light: 'darkness' }).terrainUsed).toBe('harsh');
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, days: 3 }).total).toBe(36);
  });

  it('the party keeps to its slowest member and names them', () => {
    const s = osrTable();
    addPc(s, 'Strong', { str: 14, maxHp: 8 });
    addPc(s, 'Laden', { str: 10, load: 12, maxHp: 8 });
    const p = travelPreview(s.world, DEFAULT_TRAVEL);
    expect(p.members.map((m) => [m.name, m.miles])).toEqual([
      ['Strong', 12],
      ['Laden', 5],
    ]);
    expect(p.members[1]!.why).toContain('encumbered: half pace');
    expect(p.perDay).toBe(5);
    expect(p.slowest).toBe('Laden');
  });

  it('a completely encumbered PC (0\' speed: STR 10, 16 load) travels 0, so the party cannot go together; the reason is the server\'s', () => {
    const s = osrTable();
    addPc(s, 'Strong', { str: 14, maxHp: 8 });
    addPc(s, 'Mule', { str: 10, load: 16, maxHp: 8 });
    const p = travelPreview(s.world, DEFAULT_TRAVEL);
    expect(p.members.map((m) => [m.name, m.miles])).toEqual([
      ['Strong', 12],
      ['Mule', 0],
    ]);
    expect(p.perDay).toBe(0);
    const refused = s.fail(travelCommand(DEFAULT_TRAVEL) as { type: string; [k: string]: Json });
    expect(refused.code).toBe('CANNOT_TRAVEL');
    expect(p.blocked).toBe(refused.message);
  });

  it('boats and ships: 30 and 100 miles a day, halved against the current, doubled with it; travel turns weekly at sea', () => {
    const s = osrTable();
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, mode: 'river', vessel: 'boat' }).perDay).toBe(30);
    // Review 9: a ship on a river went 100 a day; the water sets the vessel (001 names a ship's 100 for the sea only).
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, mode: 'river', vessel: 'ship' }).perDay).toBe(30);
    expect(travelCommand({ ...DEFAULT_TRAVEL, mode: 'river', vessel: 'ship' })).toMatchObject({ vessel: 'boat' });
    expect(s.fail({ type: 'osr.travel', mode: 'river', vessel: 'ship' })).toMatchObject({ code: 'INVALID_VALUE', path: 'vessel' });
    expect(s.fail({ type: 'osr.travel', mode: 'sea', vessel: 'boat' })).toMatchObject({ code: 'INVALID_VALUE', path: 'vessel' });
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, mode: 'sea', vessel: 'ship', current: 'unfavourable' }).perDay).toBe(50);
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, mode: 'sea', vessel: 'ship', current: 'favourable', days: 15 })).toMatchObject({ perDay: 200, total: 3000, travelTurns: 2 });
    expect(travelPreview(s.world, { ...DEFAULT_TRAVEL, days: 4 }).travelTurns).toBe(4);
  });

  it('says exactly what osr.travel then does, for any party and any road (property)', () => {
    const member = fc.record({ str: fc.integer({ min: 3, max: 18 }), load: fc.integer({ min: 0, max: 20 }), exhausted: fc.boolean() });
    const road = fc.record({
      mode: fc.constantFrom('overland' as const, 'river' as const, 'sea' as const),
      days: fc.integer({ min: 1, max: 9 }),
      terrain: fc.constantFrom('open' as const, 'difficult' as const, 'harsh' as const),
      pace: fc.constantFrom('normal' as const, 'tactical' as const, 'stealthy' as const),
      light: fc.constantFrom('darkness' as const, 'dim' as const, 'well-lit' as const, 'brilliant' as const),
      vessel: fc.constantFrom('boat' as const, 'ship' as const),
      current: fc.constantFrom('none' as const, 'unfavourable' as const, 'favourable' as const),
      approach: fc.constantFrom('cautious' as const, 'normal' as const, 'careless' as const),
    });
    fc.assert(
      fc.property(fc.array(member, { maxLength: 4 }), road, (party, input) => {
        const s = osrTable();
        party.forEach((m, i) => {
          const id = addPc(s, `PC${i}`, { str: m.str, load: m.load, maxHp: 8 });
          if (m.exhausted) s.run({ type: 'osr.exhaust', character: id });
        });
        const preview = travelPreview(s.world, input);
        const cmd = travelCommand(input);
        expect(Number.isFinite(preview.perDay)).toBe(true);
        if (preview.blocked !== null) {
          // Someone at 0' speed: the server refuses with the same reason, and no time passes.
          expect(s.fail(cmd as { type: string; [k: string]: Json })).toMatchObject({ code: 'CANNOT_TRAVEL', message: preview.blocked });
          return;
        }
        expect(milesOf(s, cmd)).toBe(preview.perDay);
        const turns = s.world.clock.counts?.travelTurn ?? 0;
        expect(turns).toBe(preview.travelTurns);
      }),
      { numRuns: 120 },
    );
  });

  it('prints miles without float noise', () => {
    expect(formatMiles(12)).toBe('12');
    expect(formatMiles(1.25)).toBe('1.25');
    expect(formatMiles(11 / 3)).toBe('3.67');
  });
});

describe('the episode bar', () => {
  function kleptoTable() {
    const s = scenario(kleptonomicon.ruleset.modules, { rng: seededRng(5), rulesetId: 'kleptonomicon' });
    s.run({ type: 'character.add', name: 'Quill', kind: 'pc', stats: {} });
    return s;
  }
  const NPC: Json = { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } };

  /** Takes the bar's first step whose label matches, through the real engine. */
  function take(s: ReturnType<typeof kleptoTable>, label: RegExp, extra: { [k: string]: Json } = {}): void {
    const step = nextSteps(episodeOf(s.world)).find((x) => label.test(x.label));
    expect(step?.command, `no step ${label} from ${phaseLabel(episodeOf(s.world))}`).toBeTruthy();
    s.run({ ...step!.command!, ...extra });
  }

  it('walks a whole Episode with only the steps the bar offers, each landing where it says', () => {
    const s = kleptoTable();
    expect(phaseLabel(episodeOf(s.world))).toBe('Between Episodes');
    expect(nextSteps(episodeOf(s.world)).map((x) => x.label)).toEqual(['Start an Episode']);
    take(s, /Start an Episode/);
    expect(episodeOf(s.world)).toEqual({ episode: 1, phase: 'opening', encounterPhase: null });
    expect(nextSteps(episodeOf(s.world)).map((x) => x.to)).toEqual(['freeplay']);
    take(s, /Freeplay/);
    expect(phaseLabel(episodeOf(s.world))).toBe('Freeplay');
    // From Freeplay: an Encounter (started in the tracker, so no command here) or the Closing Credits.
    const fromFreeplay = nextSteps(episodeOf(s.world));
    expect(fromFreeplay.map((x) => [x.to, x.command?.type ?? null])).toEqual([
      ['encounter', null],
      ['closing', 'kleptonomicon.closingCredits'],
    ]);
    s.run({ type: 'encounter.start', combatants: [NPC, { id: 'c-quill', name: 'Quill', kind: 'pc', characterId: 'ch-1', stats: { edgeSave: 0 } }] });
    expect(phaseLabel(episodeOf(s.world))).toBe('Encounter · Main');
    expect(nextSteps(episodeOf(s.world)).map((x) => x.to)).toEqual(['pause', 'reward']);
    take(s, /Pause/);
    expect(phaseLabel(episodeOf(s.world))).toBe('Encounter · Pause');
    expect(nextSteps(episodeOf(s.world)).map((x) => x.to)).toEqual(['main', 'reward']);
    take(s, /Resume/, { endedWithBeatBy: 'guard1' });
    expect(beatsOf(s.world).find((b) => b.id === 'guard1')).toMatchObject({ left: 1, size: 2 });
    take(s, /Reward/);
    expect(phaseLabel(episodeOf(s.world))).toBe('Encounter · Reward');
    expect(nextSteps(episodeOf(s.world)).map((x) => x.to)).toEqual(['freeplay']);
    take(s, /Freeplay/);
    take(s, /Closing Credits/);
    expect(phaseLabel(episodeOf(s.world))).toBe('Closing Credits');
    expect(nextSteps(episodeOf(s.world)).map((x) => x.command?.type)).toEqual(['kleptonomicon.endEpisode']);
    take(s, /End the Episode/, { halve: false });
    expect(episodeOf(s.world)).toEqual({ episode: 1, phase: 'between', encounterPhase: null });
  });

  it('Beats: two a round each, spent Beats counted down, none below zero', () => {
    const s = kleptoTable();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'encounter.start', combatants: [NPC] });
    expect(beatsOf(s.world)).toEqual([{ id: 'guard1', name: 'Guard', left: 2, size: 2, owed: 0 }]);
    for (let i = 0; i < 2; i++) {
      s.run({ type: 'kleptonomicon.pause' });
      s.run({ type: 'kleptonomicon.resume', endedWithBeatBy: 'guard1' });
    }
    // The Guard's own turn: the Pause's Beats come out of its next turn (004 "Pause Phase").
    expect(beatsOf(s.world)[0]).toMatchObject({ left: 2, owed: 2 });
    s.run({ type: 'kleptonomicon.pause' });
    expect(s.fail({ type: 'kleptonomicon.resume', endedWithBeatBy: 'guard1' }).code).toBe('NO_BEATS');
    expect(beatsOf({ ...s.world, ext: {} })).toEqual([]);
  });

  it('no state yet reads as between Episodes', () => {
    expect(episodeOf({ ext: {} } as unknown as World)).toEqual({ episode: 0, phase: 'between', encounterPhase: null });
  });
});

describe('what the browser takes from the rulesets', () => {
  // The web helpers import the rulesets' browser entry (ADR 7); it may re-export
  // only files that import nothing at run time but each other, or the browser
  // would start shipping rules code.
  const ALLOWED = new Set(['initiative', 'rests', 'osr/exploration', 'osr/sheet', 'osr/checks', 'osr/state', 'osr/settings', 'kleptonomicon/phases', 'kleptonomicon/state', 'kleptonomicon/sheet', 'daggerheart/selectors', 'daggerheart/settings', 'daggerheart/rules', 'daggerheart/names', 'titles', 'starters', 'sheets', 'sheet-entry', 'sheet-commands', 'foe-sheets', 'capabilities', 'odds-shapes', '36th-way/recoveries', '36th-way/ranges', 'teams/awaiting', 'teams/damage', 'damage-box', 'countdown-words', 'life', 'sheet-needs', 'invite-needs', '36th-way/awaiting', 'kleptonomicon/awaiting', 'setting-words', 'stat-block-labels', 'arming', 'teams/readiness', 'setting-shapes', 'kleptonomicon/distances', 'kleptonomicon/movement']);
  const imports = (file: string): { from: string; typeOnly: boolean }[] =>
    [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*from\s+'([^']+)';/gm)].map((m) => ({ from: m[2]!, typeOnly: m[1] !== undefined }));
  // Package entries that are one file each with no run-time import (types are erased); the browser may load them.
  const DEPENDENCY_FREE: { readonly [specifier: string]: string } = { '@tablekeeper/engine/own': 'packages/engine/src/core/own.ts', '@tablekeeper/engine/events': 'packages/engine/src/core/events.ts' };

  it('the web reaches the rulesets only through the browser entry, and its files import nothing else at run time', () => {
    for (const f of ['packages/web/src/lib/osr.ts', 'packages/web/src/lib/episode.ts']) {
      const fromRulesets = imports(f).filter((i) => i.from.includes('rulesets'));
      expect(fromRulesets.map((i) => i.from)).toEqual(['@tablekeeper/rulesets/browser']);
    }
    // A type-only re-export (the actions answer's shape) is erased from the bundle, so it may name any file.
    const reached = imports('packages/rulesets/src/browser.ts')
      .filter((i) => !i.typeOnly)
      .map((i) => i.from.replace(/^\.\//, '').replace(/\.[jt]s$/, ''));
    expect(reached.length).toBeGreaterThan(0);
    for (const key of reached) expect(ALLOWED.has(key), `browser.ts re-exports ${key}`).toBe(true);
    for (const key of ALLOWED) {
      const file = path.join('packages/rulesets/src', `${key}.ts`);
      for (const i of imports(file)) {
        if (i.typeOnly) continue;
        if (Object.hasOwn(DEPENDENCY_FREE, i.from)) continue;
        const target = path.posix.join(path.posix.dirname(key), i.from).replace(/\.[jt]s$/, '');
        expect(i.from.startsWith('.') && ALLOWED.has(target), `${file} imports ${i.from} at run time`).toBe(true);
      }
    }
  });

  it('the web asks the rulesets and the engine (selectors, the status query), never world.ext, but for the engine\'s own encounter and countdowns readers (issue 17, ADR 47)', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []));
    const readers = files('packages/web/src').filter((f) => /\.ext\b|\.ext\[|\.ext\?\./.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '')));
    expect(readers.sort()).toEqual(['packages/web/src/lib/countdowns.ts', 'packages/web/src/lib/encounter.ts']);
    expect(readFileSync('packages/web/src/components/Encounter.tsx', 'utf8')).not.toContain('escalationValue');
  });

  it("the GM screen, the phone and the tracker show panels by the ruleset's declared capabilities, never by matching its id (issue 17, ADR 47)", () => {
    const components = ['GmScreen', 'PlayerView', 'Encounter', 'RowTools', 'ClockControls', 'Bestiary', 'GmRow'].map((n) => `packages/web/src/components/${n}.tsx`);
    const libs = ['damage', 'episode', 'foes', 'hitChoices', 'quickRest', 'requests', 'tswSheets'].map((n) => `packages/web/src/lib/${n}.ts`);
    for (const f of [...components, ...libs]) {
      expect(readFileSync(f, 'utf8'), f).not.toMatch(/rulesetId\s*[!=]==\s*'/);
    }
  });

  it("no web file compares a ruleset's id or an odds query's name: sheets, odds words, HP slots and tracks come from the rulesets' descriptor (issue 17, ADR 58)", () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []));
    const all = files('packages/web/src');
    expect(all.length).toBeGreaterThan(50);
    const ids = ['osr', '36th-way', 'teams', 'kleptonomicon', 'daggerheart'].join('|');
    for (const f of all) {
      const code = readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '');
      // A ruleset id or a query name compared (rulesetId === 'osr', rules === '36th-way', query === 'teams.attackOdds')...
      expect(code, f).not.toMatch(/\b(rulesetId|rules|ruleset|query)\s*[!=]==\s*'/);
      expect(code, f).not.toMatch(new RegExp(`'(${ids})'\\s*[!=]==`));
      // ...or a ruleset's id written into a call (restsOf('36th-way')): the table's own id is passed instead.
      expect(code, f).not.toMatch(new RegExp(`\\(\\s*'(${ids})'\\s*[,)]`));
    }
  });

  it('the dependency-free engine entries are what their package exports, and import nothing themselves', () => {
    for (const [specifier, file] of Object.entries(DEPENDENCY_FREE)) {
      const [, pkg, sub] = /^@tablekeeper\/([^/]+)\/(.+)$/.exec(specifier)!;
      const exported = (JSON.parse(readFileSync(`packages/${pkg}/package.json`, 'utf8')) as { exports: { [k: string]: string } }).exports[`./${sub}`];
      expect(path.posix.join(`packages/${pkg}`, exported ?? '')).toBe(file);
      expect(imports(file).filter((i) => !i.typeOnly), `${file} imports something at run time`).toEqual([]);
      expect(readFileSync(file, 'utf8')).not.toMatch(/\bimport\s*\(|\brequire\s*\(/);
    }
  });
});
