// The secrecy conformance suite every ruleset runs from its own
// test/<ruleset>/conformance.test.ts (ADR 10). Random command sequences put a
// canary into every string players must not read (hidden characters' names,
// existence-tier stats, hidden countdowns, GM notes and rolls, plus whatever
// the ruleset adds: corruptions, light sources, sheets, team names...). After
// every step (commands by the GM and by players, undo and redo, encounter
// removals) no canary may appear in a player's or a spectator's view, log,
// history, command refusal or query answer.
import { own } from '../core/own.js';
import { SHEET_MODULE_ID } from '../core/sheet.js';
import { foeRevealOf, isFoeCharacter, showsFoeNumbers } from '../foes/model.js';
import { collectKeys, collectStrings } from '../core/walk.js';
import fc from 'fast-check';
import type { Command, Engine, Json, Result, RuleError, Table, Viewer, ViewMemo, World } from '../core/types.js';
import { seededRng } from '../dice/rng.js';

/** Every canary contains this; ids and public text never do (ids are lowercase). */
export const CANARY_MARK = 'QZX';

export const SECRECY_GM: Viewer = { role: 'gm' };
export const SECRECY_ANN: Viewer = { role: 'player', seatId: 'seat-1' };
export const SECRECY_BO: Viewer = { role: 'player', seatId: 'seat-2' };
export const SECRECY_SPECTATOR: Viewer = { role: 'spectator' };

/** Random numbers a step turns into concrete choices (so fast-check can shrink them). */
export interface Dice {
  readonly a: number;
  readonly b: number;
  readonly c: number;
}

export interface StepContext {
  /** The GM's world now. */
  readonly world: World;
  /** A fresh canary: put it only where players must not read. */
  canary(): string;
  /** A fresh public word (names players may read). */
  word(): string;
  /** Element `n` of a list (modulo its length), or `fallback` when empty. */
  pick<T>(list: readonly T[], n: number, fallback: T): T;
  /** Ids of the characters in the GM's world. */
  characterIds(): string[];
  /** Ids of the combatants in the GM's world (current encounter). */
  combatantIds(): string[];
  /** Ids of characters (or combatants) players must not see at all. */
  hiddenIds(): string[];
}

/** One step: a command and who sends it; or undo / redo. */
export type Step = { readonly actor: Viewer; readonly command: Command } | null;

export type StepMaker = (ctx: StepContext, d: Dice) => Step;

export interface SecrecyOptions {
  readonly engine: Engine;
  readonly rulesetId: string;
  readonly settings?: { readonly [key: string]: Json };
  /** The ruleset's own steps (besides the engine's generic ones). */
  readonly steps?: readonly StepMaker[];
  /** Parameters for encounter.start from the roster the suite chose (team order, groups...). */
  readonly encounterParams?: (ctx: StepContext, combatants: readonly { readonly id: string; readonly visibility: string }[]) => Json | undefined;
  /** Per-combatant fields added at encounter start / add (a hidden one gets canary text where the ruleset shows it). */
  readonly combatantExtra?: (ctx: StepContext, visibility: string, d: Dice) => { readonly [k: string]: Json };
  readonly sequences?: number;
  readonly maxSteps?: number;
  readonly seed?: number;
  /**
   * Also decide each player's command the old way (walkRefusal: every key of
   * the GM's world against every key of the player's projection) and require
   * the same outcome from the modules' idStatus hooks (ADR 18). Default true.
   */
  readonly compareWithWalk?: boolean;
  /**
   * Module ids (keys of `world.ext`) whose state gets planted keys (ADR 25):
   * before about one step in three, a GM-only key (`zq_canary_<n>`, holding a
   * canary) is written into a random record anywhere in that state, hidden
   * or shown, as a field a later version might add. A default-deny projector
   * drops it; a projector that copies records whole leaks it.
   */
  readonly plant?: readonly string[];
}

export interface SecrecyReport {
  readonly sequences: number;
  readonly steps: number;
  readonly playerCommands: number;
  readonly refusals: number;
  /** Player commands whose outcome was compared with the walk over the whole world. */
  readonly compared: number;
  /** Accepted commands by type, so a suite can check its steps really ran (not refused as malformed). */
  readonly accepted: { readonly [type: string]: number };
  /** Keys planted into module state (with `plant`), in all and by module. */
  readonly planted: number;
  readonly plantedIn: { readonly [module: string]: number };
  /** Projections by parts (one memo for every viewer, ADR 20) compared with fresh ones. */
  readonly projectionsCompared: number;
  /**
   * Steps after which the engine's history basis (ADR 45) moved, and after which players read
   * some held history entry otherwise (each of those must be one of the former).
   */
  readonly historyBasisMoved: number;
  readonly historyReadOtherwise: number;
}

/** Equal as JSON values, whatever the order of keys. */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && sameJsonValue(ra[k], rb[k]));
}

/** Where two JSON values first differ (for a readable failure). */
function firstDifference(a: unknown, b: unknown, path: string): string {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) if (!sameJsonValue(ra[k], rb[k])) return firstDifference(ra[k], rb[k], `${path}.${k}`);
  }
  return `${path}: by parts ${JSON.stringify(a)?.slice(0, 300)}, fresh ${JSON.stringify(b)?.slice(0, 300)}`;
}

/** Id-like fields a player's random command fills with ids (hidden ones included). */
const ID_FIELDS = ['id', 'target', 'attacker', 'character', 'characterId', 'combatant', 'owner', 'by', 'ally', 'attack', 'linkedTo', 'targetId', 'helperId', 'source', 'to'];

/** A planted key's name: no random id ([a-z]{12}) can hold a digit or an underscore. */
export const PLANTED_KEY = 'zq_canary_';

function leak(text: string): boolean {
  return text.includes(CANARY_MARK) || text.includes(PLANTED_KEY);
}

type Path = readonly (string | number)[];

/**
 * Records whose `stats` players read as entered: a visible PC combatant's
 * and a visible character's (the party's own numbers). Every other free-form
 * field (a foe's stats, a condition's params and save, an Edge Save roll's
 * detail) is projected by declared keys (ADR 33), so keys are planted there too.
 */
const statsShown = (record: { readonly [k: string]: Json }, path: Path, foeStats: ((id: string) => boolean) | null): boolean =>
  record['visibility'] === 'visible' && (path[0] === 'characters' ? path.length === 2 && (foeStats === null || !foeStats(String(path[1]))) : record['kind'] === 'pc');

/**
 * The world with one key planted in a record of the named modules' state
 * (and of `world.characters` when `modules` names 'characters'): any object
 * holding at least one field that is not an object (maps keyed by id hold
 * only records, and a key there would be a phantom record, not a new field).
 * Null when the state has no such record.
 */
export function plantKey(world: World, modules: readonly string[], n: number, label: number, foeStatsProjected = false): { readonly world: World; readonly module: string } | null {
  const spots: Path[] = [];
  // With a sheet module, a visible foe character's stats are projected by declared keys (ADR 33): keys are planted there too, unless the table shows every number.
  const foeStats = foeStatsProjected && !showsFoeNumbers(world) ? (id: string) => isFoeCharacter(world, id) : null;
  const visit = (v: Json, path: Path): void => {
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...path, i]));
    else if (v !== null && typeof v === 'object') {
      const values = Object.values(v);
      if (values.some((x) => x === null || typeof x !== 'object' || Array.isArray(x))) spots.push(path);
      for (const [k, x] of Object.entries(v)) if (k !== 'stats' || !statsShown(v, path, foeStats)) visit(x, [...path, k]);
    }
  };
  for (const m of modules) {
    if (m === 'characters') {
      for (const [id, c] of Object.entries(world.characters)) visit(c as unknown as Json, ['characters', id]);
      continue;
    }
    const state = own(world.ext, m);
    if (state !== undefined) visit(state, ['ext', m]);
  }
  if (spots.length === 0) return null;
  const path = spots[n % spots.length]!;
  const set = (v: Json, i: number): Json => {
    if (i === path.length) return { ...(v as { [k: string]: Json }), [`${PLANTED_KEY}${label}`]: `${CANARY_MARK}${label}${CANARY_MARK}` };
    const k = path[i]!;
    if (Array.isArray(v)) {
      const copy = v.slice();
      copy[k as number] = set(v[k as number]!, i + 1);
      return copy;
    }
    const o = v as { [k: string]: Json };
    return { ...o, [k]: set(o[k as string]!, i + 1) };
  };
  return { world: set(world as unknown as Json, 0) as unknown as World, module: String(path[0] === 'ext' ? path[1] : path[0]) };
}

/**
 * Runs the property; throws (with the seed and the failing sequence) on the
 * first leak. Returns what was run, for the test to report.
 */
export function checkSecrecy(opts: SecrecyOptions): SecrecyReport {
  const sequences = opts.sequences ?? 1000;
  const maxSteps = opts.maxSteps ?? 10;
  const seed = opts.seed ?? 20261125;
  let steps = 0;
  let playerCommands = 0;
  let refusals = 0;
  let compared = 0;
  let planted = 0;
  const plantedIn: { [module: string]: number } = {};
  let projectionsCompared = 0;
  let historyBasisMoved = 0;
  let historyReadOtherwise = 0;
  const accepted: { [type: string]: number } = {};
  const commandTypes = opts.engine.modules.flatMap((m) => Object.keys(m.commands ?? {})).sort();
  const foeStatsProjected = opts.engine.modules.some((m) => m.id === SHEET_MODULE_ID);
  const queryNames = opts.engine.modules.flatMap((m) => Object.keys(m.queries ?? {})).sort();

  const dice = fc.record({ a: fc.nat({ max: 1000 }), b: fc.nat({ max: 1000 }), c: fc.nat({ max: 1000 }) });
  const arbitrary = fc.array(fc.tuple(fc.nat({ max: 1000 }), dice), { minLength: 1, maxLength: maxSteps });

  const run = (script: readonly (readonly [number, Dice])[]): void => {
    const engine = opts.engine;
    const rng = seededRng(script.length * 7919 + (script[0]?.[0] ?? 0));
    let table: Table = engine.createTable({ tableId: 't-secrecy', name: 'Secrecy table', rulesetId: opts.rulesetId, ...(opts.settings === undefined ? {} : { settings: opts.settings }) });
    let counter = 0;
    const exec = (actor: Viewer, command: Command): Result<unknown> => {
      const r = engine.execute(table, command, { rng, actor });
      if (r.ok) table = r.value.table;
      return r;
    };
    const must = (command: Command): void => {
      const r = exec(SECRECY_GM, command);
      if (!r.ok) throw new Error(`setup ${command.type} failed: ${r.error.message}`);
    };
    must({ type: 'seat.add', name: 'Ann' });
    must({ type: 'seat.add', name: 'Bo' });
    const ctx: StepContext = {
      get world() {
        return table.world;
      },
      canary: () => `${CANARY_MARK}${++counter}${CANARY_MARK}`,
      word: () => `Pub${++counter}`,
      pick: (list, n, fallback) => (list.length === 0 ? fallback : list[n % list.length]!),
      characterIds: () => Object.keys(table.world.characters),
      combatantIds: () => {
        const enc = table.world.ext['encounter'] as { combatants?: { [id: string]: unknown } } | undefined;
        return enc?.combatants === undefined ? [] : Object.keys(enc.combatants);
      },
      hiddenIds: () => {
        const out = Object.values(table.world.characters).filter((c) => c.visibility === 'hidden').map((c) => c.id);
        const enc = table.world.ext['encounter'] as { combatants?: { [id: string]: { visibility?: string } } } | undefined;
        for (const [id, c] of Object.entries(enc?.combatants ?? {})) if (c.visibility === 'hidden') out.push(id);
        return out;
      },
    };
    const makers = [...genericSteps(opts, commandTypes, queryNames), ...(opts.steps ?? [])];
    // One memo for every viewer, as a room keeps it: a projector's declared reads must be honest (ADR 20).
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    const viewers = [SECRECY_GM, SECRECY_ANN, SECRECY_BO, SECRECY_SPECTATOR];
    let last: Table = table;
    /**
     * ADR 45: a server re-makes a player's held history only when the engine's history basis moves,
     * so whenever any non-GM reading of an entry they could hold changed, the basis must have moved.
     */
    const checkBasis = (where: string): void => {
      const before = last;
      last = table;
      const moved = engine.historyBasis(before.world) !== engine.historyBasis(table.world);
      if (moved) historyBasisMoved++;
      let otherwise = false;
      for (const v of [SECRECY_ANN, SECRECY_BO, SECRECY_SPECTATOR]) {
        const was = engine.history(before, v);
        const now = engine.history(table, v).filter((h) => h.seq <= before.transactions.length);
        if (sameJsonValue(was, now)) continue;
        otherwise = true;
        if (!moved) throw new Error(`${where}: ${JSON.stringify(v)} reads held history otherwise (${firstDifference(was, now, 'history')}), yet the history basis did not move`);
      }
      if (otherwise) historyReadOtherwise++;
    };
    const check = (where: string): void => {
      checkBasis(where);
      if (opts.compareWithWalk !== false) compareIds(engine, table.world, where);
      // In a rotating order, so a projector that reads the seat without saying so serves one seat another's parts.
      for (let i = 0; i < viewers.length; i++) {
        const v = viewers[(i + steps) % viewers.length]!;
        const byParts = engine.project(table.world, v, memo);
        const fresh = engine.project(table.world, v);
        projectionsCompared++;
        if (!sameJsonValue(byParts, fresh)) throw new Error(`${where}: the projection by parts for ${JSON.stringify(v)} differs from a fresh one at ${firstDifference(byParts, fresh, 'world')}`);
      }
      for (const v of [SECRECY_ANN, SECRECY_BO, SECRECY_SPECTATOR]) {
        const text = JSON.stringify(engine.view(table, v));
        if (leak(text)) {
          const at = text.includes(CANARY_MARK) ? text.indexOf(CANARY_MARK) : text.indexOf(PLANTED_KEY);
          throw new Error(`${where}: a canary reached ${JSON.stringify(v)}: …${text.slice(Math.max(0, at - 300), at + 40)}…`);
        }
      }
    };
    let plantedHere = false;
    for (const [k, d] of script) {
      steps++;
      if (opts.plant !== undefined && d.c % 3 === 0) {
        const w = plantKey(table.world, opts.plant, d.a * 31 + d.b, ++counter, foeStatsProjected);
        if (w !== null) {
          table = { ...table, world: w.world };
          planted++;
          plantedIn[w.module] = (plantedIn[w.module] ?? 0) + 1;
          plantedHere = true;
          check('after planting a key');
        }
      }
      const maker = makers[k % makers.length]!;
      const step = maker(ctx, d);
      if (step === null) {
        // Undo or redo, by the GM or by Ann (her own last command only).
        const actor = d.c % 3 === 0 ? SECRECY_ANN : SECRECY_GM;
        const r = exec(actor, { type: d.a % 2 === 0 ? 'history.undo' : 'history.redo' });
        if (!r.ok && actor.role !== 'gm' && leak(JSON.stringify(r.error))) throw new Error(`undo refusal leaked: ${JSON.stringify(r.error)}`);
        check(`after ${d.a % 2 === 0 ? 'undo' : 'redo'}`);
        continue;
      }
      if ('query' in step.command && step.command.type === '__query') {
        const name = String(step.command['query']);
        const r = engine.query(table, step.actor, name, step.command['args'] ?? {});
        if (leak(JSON.stringify(r))) throw new Error(`query ${name} answered ${JSON.stringify(step.actor)} with a canary: ${JSON.stringify(r)}`);
        continue;
      }
      const before = table.world;
      const expected = step.actor.role !== 'gm' && opts.compareWithWalk !== false ? walkRefusal(engine, before, step.command, step.actor) : undefined;
      const r = exec(step.actor, step.command);
      if (expected !== undefined) {
        compared++;
        const mismatch = sameOutcome(engine, before, step.command, step.actor, expected, r);
        if (mismatch !== null) throw new Error(`${step.command.type} by ${JSON.stringify(step.actor)} (${JSON.stringify(step.command)}): idStatus and the whole-world walk disagree: ${mismatch}`);
      }
      if (r.ok) accepted[step.command.type] = (accepted[step.command.type] ?? 0) + 1;
      if (step.actor.role !== 'gm') {
        playerCommands++;
        if (!r.ok) {
          refusals++;
          if (leak(JSON.stringify(r.error))) throw new Error(`${step.command.type} by ${JSON.stringify(step.actor)} was refused with a canary: ${JSON.stringify(r.error satisfies RuleError)}`);
        }
      }
      check(`after ${step.command.type}`);
    }
    // Replay from the stored rows rebuilds the same world (random ids are in the events); planted keys are in no event.
    if (plantedHere) return;
    const again = engine.replay(table.genesis, JSON.parse(JSON.stringify(table.transactions)) as Table['transactions']);
    if (JSON.stringify(again.world) !== JSON.stringify(table.world)) throw new Error('replay did not rebuild the same world');
  };

  fc.assert(fc.property(arbitrary, (script) => run(script)), { numRuns: sequences, seed, verbose: 0 });
  return { sequences, steps, playerCommands, refusals, compared, accepted, planted, plantedIn, projectionsCompared, historyBasisMoved, historyReadOtherwise };
}

/**
 * The refusal a player's command got before ADR 18, kept as the reference the
 * modules' idStatus hooks are checked against: a hidden id is any string of the
 * command that is a key (of a record or a list) in the GM's world but not in
 * the player's projection. The stand-in avoids every key of the GM's world.
 */
export function walkRefusal(engine: Engine, world: World, command: Command, actor: Viewer): RuleError | null {
  const named = new Set<string>();
  collectStrings(command, named);
  const gmKeys = collectKeys(world, new Set());
  const candidates = [...named].filter((x) => gmKeys.has(x));
  if (candidates.length === 0) return null;
  const seen = collectKeys(engine.project(world, actor), new Set());
  const hidden = candidates.filter((x) => !seen.has(x));
  if (hidden.length === 0) return null;
  const taken = new Set([...gmKeys, ...named]);
  const standIn = new Map<string, string>();
  for (const h of hidden) {
    let n = `${h.slice(0, -1)}${h.endsWith('0') ? '1' : '0'}`;
    while (taken.has(n)) n += '~';
    taken.add(n);
    standIn.set(h, n);
  }
  const swap = (v: Json): Json => {
    if (typeof v === 'string') return standIn.get(v) ?? v;
    if (Array.isArray(v)) return v.map(swap);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [standIn.get(k) ?? k, swap(x)]));
    return v;
  };
  const probe = engine.decide(world, swap(command as unknown as Json) as unknown as Command, { rng: seededRng(0), actor });
  if (probe.ok) return null;
  const back = (text: string): string => {
    let out = text;
    for (const [h, n] of standIn) out = out.split(n).join(h);
    return out;
  };
  const e = probe.error;
  return { code: e.code, message: back(e.message), ...(e.path === undefined ? {} : { path: back(e.path) }), ...(e.column === undefined ? {} : { column: e.column }) };
}

/**
 * Every key of the GM's world, asked of the modules (engine.idStatus) and of
 * the walk: a module that claims an id must answer as the projection shows it.
 * Keys no module claims are field names (stats, data, dice...), not ids.
 */
function compareIds(engine: Engine, world: World, where: string): void {
  const gmKeys = collectKeys(world, new Set());
  for (const v of [SECRECY_ANN, SECRECY_SPECTATOR]) {
    const seen = collectKeys(engine.project(world, v), new Set());
    for (const k of gmKeys) {
      const s = engine.idStatus(world, v, k);
      const walked = seen.has(k) ? 'shown' : 'hidden';
      if (s !== undefined && s !== walked) throw new Error(`${where}: idStatus says ${k} is ${s} for ${JSON.stringify(v)}, the projection says ${walked}`);
    }
  }
}

/** Null when `got` is what the walk expects: its refusal, else what deciding the command as sent gives (ok, or the same code and message). */
function sameOutcome(engine: Engine, world: World, command: Command, actor: Viewer, walked: RuleError | null, got: Result<unknown>): string | null {
  if (walked !== null) return !got.ok && JSON.stringify(got.error) === JSON.stringify(walked) ? null : `walk refused with ${JSON.stringify(walked)}, got ${JSON.stringify(got.ok ? 'ok' : got.error)}`;
  const direct = engine.decide(world, command, { rng: seededRng(0), actor });
  if (direct.ok && got.ok) return null;
  if (!direct.ok && !got.ok && direct.error.code === got.error.code && direct.error.message === got.error.message) return null;
  return `walk found nothing hidden and decide gives ${JSON.stringify(direct.ok ? 'ok' : direct.error)}, got ${JSON.stringify(got.ok ? 'ok' : got.error)}`;
}


/** The engine's own steps: characters, countdowns, encounters, notes, rolls and players' random commands. */
function genericSteps(opts: SecrecyOptions, commandTypes: readonly string[], queryNames: readonly string[]): StepMaker[] {
  const foeStatsProjected = opts.engine.modules.some((m) => m.id === SHEET_MODULE_ID);
  const gm = (command: Command): Step => ({ actor: SECRECY_GM, command });
  const tiers = ['hidden', 'existence', 'visible'] as const;
  const roster = (ctx: StepContext, d: Dice) => [
    // Two combatants without characters (one visible, one hidden), so a fight can start at any table.
    ...(['visible', 'hidden'] as const).map((visibility, i) => ({
      id: `foe${d.a}v${i}`,
      kind: 'npc',
      visibility,
      name: visibility === 'hidden' ? ctx.canary() : ctx.word(),
      ...(opts.combatantExtra?.(ctx, visibility, { a: d.a + 7 * i, b: d.b + i, c: d.c }) ?? {}),
    })),
    ...ctx.characterIds().map((id, i) => {
      const ch = own(ctx.world.characters, id)!;
      const visibility = ch.visibility === 'reveal-on-trigger' ? 'existence' : ch.visibility;
      return {
        id,
        kind: ch.kind,
        characterId: id,
        visibility,
        name: visibility === 'hidden' ? ctx.canary() : ch.name,
        ...(opts.combatantExtra?.(ctx, visibility, { a: d.a + i, b: d.b + i, c: d.c }) ?? {}),
      };
    }),
  ];
  // NPC combatants: their own stats are the GM's, whatever their tier (ADR 33).
  const foeIds = (ctx: StepContext): string[] => {
    const enc = ctx.world.ext['encounter'] as { combatants?: { [id: string]: { kind?: string } } } | undefined;
    return Object.entries(enc?.combatants ?? {}).filter(([, c]) => c.kind === 'npc').map(([id]) => id);
  };
  return [
    // A character of each tier: hidden ones are canaries whole; existence-tier ones hide their stats.
    (ctx, d) => {
      const visibility = tiers[d.a % 3]!;
      const kind = d.b % 2 === 0 ? 'npc' : 'pc';
      const seatId = visibility === 'visible' && kind === 'pc' ? ctx.pick(['seat-1', 'seat-2'], d.c, 'seat-1') : null;
      return gm({
        type: 'character.add',
        name: visibility === 'hidden' ? ctx.canary() : ctx.word(),
        kind,
        visibility,
        seatId,
        // A foe's stats are the GM's too where a sheet module projects them (ADR 33); a PC's pass as entered.
        stats: visibility === 'visible' && (kind === 'pc' || !foeStatsProjected) ? { hp: 10, ac: 12 } : { hp: 10, ac: 12, note: ctx.canary() },
      });
    },
    (ctx, d) => gm({ type: 'character.remove', id: ctx.pick(ctx.characterIds(), d.a, 'nobody') }),
    // A countdown of each tier: what its tier keeps from players is a canary (a hidden one whole, an existence-only one's texts,
    // and every beat the party may not learn of); the rest is public, so planted keys (ADR 25) land in shown records too.
    (ctx, d) => {
      const visibility = tiers[d.b % 3]!;
      const open = (): string => (visibility === 'visible' ? ctx.word() : ctx.canary());
      return gm({
        type: 'countdown.create',
        name: visibility === 'hidden' ? ctx.canary() : ctx.word(),
        start: 1 + (d.a % 6),
        visibility,
        kind: d.c % 2 === 0 ? 'standard' : 'longTerm',
        effect: open(),
        beats: [
          { at: 0, text: ctx.canary(), partyCanLearn: false },
          { at: d.a % 6, text: open(), partyCanLearn: true },
        ],
      });
    },
    (ctx, d) => {
      const combatants = roster(ctx, d);
      const params = opts.encounterParams?.(ctx, combatants);
      return gm({ type: 'encounter.start', combatants: combatants as unknown as Json, ...(params === undefined ? {} : { params }) });
    },
    (ctx, d) => {
      const visibility = tiers[d.a % 3]!;
      const id = `cb${d.b}x${d.c}`;
      return gm({
        type: 'encounter.add',
        combatant: { id, kind: d.c % 2 === 0 ? 'npc' : 'pc', visibility, name: visibility === 'hidden' ? ctx.canary() : ctx.word(), ...(opts.combatantExtra?.(ctx, visibility, d) ?? {}) },
      });
    },
    (ctx, d) => gm({ type: 'encounter.remove', id: ctx.pick(ctx.combatantIds(), d.a, 'nobody') }),
    (_ctx, d) => gm({ type: d.a % 3 === 0 ? 'encounter.end' : 'encounter.endTurn' }),
    // Free-form values the GM enters on shown records (ADR 33): a foe's stats, a condition's params and save.
    (ctx, d) =>
      d.a % 3 === 0
        ? gm({ type: 'encounter.advance' })
        : d.a % 3 === 1
          ? gm({ type: 'encounter.setStats', characterId: ctx.pick(foeIds(ctx), d.b, 'nobody'), stats: { gmNote: ctx.canary(), hp: 1 + (d.c % 9) } })
          : gm({
              type: 'condition.apply',
              targetId: ctx.pick(ctx.combatantIds(), d.b, 'nobody'),
              condition: `custom:${ctx.word()}`,
              duration: d.c % 2 === 0 ? { kind: 'saveEnds', save: { dc: ctx.canary() } } : { kind: 'rounds', rounds: 2 },
              params: { amount: 3, type: 'fire', note: ctx.canary() },
            }),
    // GM notes, and the bestiary and its templates (issue 20), are the GM's alone: every name and note is a canary.
    // One step for all three keeps the share of players' steps the rulesets' suites count on.
    (ctx, d) =>
      d.a % 3 === 0
        ? gm({ type: 'log.note', text: ctx.canary(), audience: { kind: 'gm' } })
        : d.a % 3 === 1
          ? gm({ type: 'bestiary.save', name: ctx.canary(), notes: ctx.canary(), block: {} })
          : gm({ type: 'bestiary.saveTemplate', name: ctx.canary(), lines: [{ name: ctx.canary(), count: 1 + (d.b % 6), kind: 'npc', hidden: d.c % 2 === 0 }] }),
    // A GM's secret roll; the turn timer and a player's own request, so planted keys (ADR 33) land in records players read in full.
    (ctx, d) => {
      if (d.a % 3 === 0) return gm({ type: 'dice.roll', notation: '2d6', audience: 'gm', label: ctx.canary() });
      if (d.a % 3 === 1) return gm({ type: 'timer.set', seconds: 60 + (d.b % 60) });
      const annSeat = Object.values(ctx.world.seats).find((s) => s.name === 'Ann');
      const mine = annSeat === undefined ? [] : annSeat.characterIds.filter((id) => own(ctx.world.characters, id)?.visibility === 'visible');
      return { actor: SECRECY_ANN, command: { type: 'request.make', characterId: ctx.pick(mine, d.b, 'nobody'), kind: 'damage', amount: 1 + (d.c % 5), note: ctx.word() } };
    },
    // The GM's reveal of foes' defences (ADR 33), now and then: the defence tier is projected too (never `all`, which shows what the GM entered).
    (ctx, d) => (d.a % 4 === 0 && commandTypes.includes('foes.reveal') ? gm({ type: 'foes.reveal', reveal: foeRevealOf(ctx.world) === 'none' ? 'defences' : 'none' }) : null),
    () => null,
    // A player's command of any type, its id fields naming anything (hidden ids included).
    (ctx, d) => {
      const ids = [...ctx.characterIds(), ...ctx.combatantIds(), ...ctx.hiddenIds(), 'nobody'];
      const command: { [k: string]: Json } = { type: ctx.pick(commandTypes, d.a, 'log.note') };
      ID_FIELDS.forEach((f, i) => {
        if ((d.b >> (i % 10)) & 1) command[f] = ctx.pick(ids, d.c + i, 'nobody');
      });
      return { actor: d.c % 2 === 0 ? SECRECY_ANN : SECRECY_BO, command: command as Command };
    },
    // A player's query naming anything.
    (ctx, d) => {
      if (queryNames.length === 0) return null;
      const ids = [...ctx.characterIds(), ...ctx.combatantIds(), ...ctx.hiddenIds(), 'nobody'];
      const args: { [k: string]: Json } = {};
      ID_FIELDS.forEach((f, i) => {
        if ((d.b >> (i % 10)) & 1) args[f] = ctx.pick(ids, d.c + i, 'nobody');
      });
      return { actor: SECRECY_ANN, command: { type: '__query', query: ctx.pick(queryNames, d.a, ''), args } };
    },
  ];
}
