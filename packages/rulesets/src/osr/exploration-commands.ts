// Commands for 001 "Travel Turns", "Timekeeping", "Light", "Rolling To
// Return", "Overland Travel" and "Overwater Travel", all on the one clock.
import { clockAdvanced, mintId, type CommandHandler, type EngineEvent, type World, own } from '@tablekeeper/engine';
import { resolveCheck } from './checks.js';
import {
  CADENCE_HOURS,
  LIGHT_SOURCES,
  hourFromTimeDice,
  overwaterMiles,
  partyPace,
  quarterOf,
  returnDc,
  secondsUntilHour,
  travelTurnRow,
  type Cadence,
  type LightLevel,
  type LightSourceKind,
  type Traveller,
} from './exploration.js';
import { osrSettings } from './settings.js';
import { checkAdvantage, controls, fail, hpEvents, j, okv, readBool, readCharacter, readCharacters, readNum, readOpt, readText } from './shared.js';
import { bestModifier } from './sheet.js';
import { getOsr, sheetOf } from './state.js';
import { rollCheckDice } from './rolls.js';
import type { Env } from '@tablekeeper/engine';
import { naturalOneDoubles, proficiencyFor } from './combat-commands.js';
import { damageTotal } from './combat.js';

const LIGHT_LEVELS: readonly LightLevel[] = ['darkness', 'dim', 'well-lit', 'brilliant'];
const CADENCES: readonly Cadence[] = ['dungeon', 'overland', 'river', 'sea'];

/** One travel-turn roll (d20, with advantage for a cautious party, disadvantage for a careless one). */
function travelTurnEvent(world: World, env: Env, approach: 'cautious' | 'normal' | 'careless', cadence: Cadence, turnsOut: number): EngineEvent {
  const a = approach === 'cautious' ? 1 : approach === 'careless' ? -1 : 0;
  const dice = rollCheckDice(env.rng, a);
  const natural = a === 1 ? Math.max(...dice) : a === -1 ? Math.min(...dice) : dice[0]!;
  const row = travelTurnRow(natural);
  return { type: 'osr.travelTurnRolled', dice, approach, natural, band: row.band, prompts: [...row.prompts], cadence, turnsOut: turnsOut + 1, hour: Math.floor(world.clock.seconds / 3600) % 24 };
}

/** One traveller's pace inputs from the sheet and the table's exhaustion list. */
export function travellerOf(world: World, id: string): Traveller {
  const s = sheetOf(world, id);
  return { id, name: world.characters[id]?.name ?? id, str: s.str, load: s.load, speed: s.speed, exhausted: getOsr(world).exhausted.includes(id) };
}

const livingPcs = (world: World): string[] => {
  const st = getOsr(world);
  return Object.values(world.characters)
    .filter((c) => c.kind === 'pc' && !st.dead.includes(c.id) && st.dying[c.id] === undefined)
    .map((c) => c.id);
};

export function explorationCommands(): { [type: string]: CommandHandler } {
  return {
    // 001 "Travel Turns": an hour (or the cadence's span) passes, then the GM's d20 on the table.
    'osr.travelTurn': {
      label: 'take a travel turn',
      decide(world, c, env) {
        const approach = readOpt(c, 'approach', ['cautious', 'normal', 'careless'] as const, 'normal');
        if (!approach.ok) return approach;
        const cadence = readOpt(c, 'cadence', CADENCES, 'dungeon');
        if (!cadence.ok) return cadence;
        const hours = CADENCE_HOURS[cadence.value];
        const tick = clockAdvanced(world, 'travelTurn', 1, hours * 3600);
        return okv([tick, travelTurnEvent(world, env, approach.value, cadence.value, getOsr(world).turnsOut)]);
      },
    },

    // 001 "Travel Turns": in a dungeon every 3-4 scenes, rooms or encounters count as an hour.
    'osr.scene': {
      label: 'count a scene',
      decide(world, c, env) {
        const approach = readOpt(c, 'approach', ['cautious', 'normal', 'careless'] as const, 'normal');
        if (!approach.ok) return approach;
        const st = getOsr(world);
        const n = st.scenes + 1;
        if (n < osrSettings(world).scenesPerTravelTurn) return okv([{ type: 'osr.sceneCounted', scenes: n }]);
        return okv([{ type: 'osr.sceneCounted', scenes: 0 }, clockAdvanced(world, 'travelTurn', 1, 3600), travelTurnEvent(world, env, approach.value, 'dungeon', st.turnsOut)]);
      },
    },

    // The party reaches safety by play (not a roll): the roll-to-return count starts again.
    'osr.reachSafety': {
      label: 'reach safety',
      decide(world) {
        return okv([{ type: 'osr.returned', from: getOsr(world).turnsOut }]);
      },
    },

    // 001 "Light": the GM states the scene's light level.
    'osr.setLight': {
      label: 'set the light',
      decide(world, c) {
        const level = readOpt(c, 'level', LIGHT_LEVELS, 'well-lit');
        if (!level.ok) return level;
        return okv([{ type: 'osr.lightSet', level: level.value, from: getOsr(world).ambient }]);
      },
    },

    // Torches burn one hour, lanterns three (001 "Travel Turns", "Light"); they go out on the clock.
    'osr.lightSource': {
      label: 'light a torch or lantern',
      authorize: (world, c, actor) => (actor.role === 'gm' || (c['characterId'] !== undefined && controls(world, actor, c['characterId'])) ? null : { code: 'FORBIDDEN', message: 'players light their own characters\' sources' }),
      decide(world, c, env) {
        const kind = readOpt(c, 'kind', Object.keys(LIGHT_SOURCES) as LightSourceKind[], 'torch');
        if (!kind.ok) return kind;
        let owner: string | null = null;
        if (c['characterId'] !== undefined) {
          const o = readCharacter(world, c, 'characterId');
          if (!o.ok) return o;
          owner = o.value;
        }
        if (Object.keys(getOsr(world).sources).length >= 200) return fail('LIMIT_EXCEEDED', 'at most 200 light sources at a table');
        const label = readText(c, 'label', 60, kind.value);
        if (!label.ok) return label;
        const [id] = mintId(world, 'light', env.rng);
        const seconds = LIGHT_SOURCES[kind.value].hours * 3600;
        return okv([{ type: 'osr.sourceLit', id, kind: kind.value, owner, label: label.value, burnsOutAt: world.clock.seconds + seconds }]);
      },
    },
    'osr.douse': {
      label: 'put out a light',
      decide(world, c) {
        const id = c['id'];
        const s = typeof id === 'string' ? own(getOsr(world).sources, id) : undefined;
        if (s === undefined) return fail('NOT_FOUND', `no light source ${JSON.stringify(id ?? null)}`, 'id');
        if (s.burnsOutAt === null) return fail('NOT_BURNING', 'that light is already out', 'id');
        return okv([{ type: 'osr.sourceDoused', id: s.id, remaining: s.burnsOutAt - world.clock.seconds }]);
      },
    },
    'osr.relight': {
      label: 'relight',
      decide(world, c) {
        const id = c['id'];
        const s = typeof id === 'string' ? own(getOsr(world).sources, id) : undefined;
        if (s === undefined) return fail('NOT_FOUND', `no light source ${JSON.stringify(id ?? null)}`, 'id');
        if (s.burnsOutAt !== null) return fail('BURNING', 'that light is already burning', 'id');
        if (s.remaining <= 0) return fail('SPENT', 'that light has burned out', 'id');
        return okv([{ type: 'osr.sourceLit', id: s.id, kind: s.kind, owner: s.owner, label: s.label, burnsOutAt: world.clock.seconds + s.remaining }]);
      },
    },

    // 001 "Timekeeping": roll 1-4 time dice for an hour (the sum) or a duration in hours;
    // `from` sets a starting hour and the dice add to it. 'clock' moves the clock to that hour.
    'osr.rollTime': {
      label: 'roll time dice',
      decide(world, c, env) {
        const n = readNum(c, 'dice', 1, 4, 1);
        if (!n.ok) return n;
        const from = readNum(c, 'from', 0, 23, 0);
        if (!from.ok) return from;
        const use = readOpt(c, 'use', ['clock', 'duration', 'show'] as const, 'show');
        if (!use.ok) return use;
        const faces = Array.from({ length: n.value }, () => env.rng.die(6));
        const sum = faces.reduce((a, b) => a + b, 0);
        const hour = (from.value + hourFromTimeDice(faces)) % 24;
        const out: EngineEvent[] = [{ type: 'osr.timeRolled', faces, from: from.value, sum, hour, quarter: quarterOf(hour), use: use.value }];
        if (use.value === 'clock') {
          const wait = secondsUntilHour(world.clock.seconds, hour);
          if (wait > 0) out.push(clockAdvanced(world, 'time', 0, wait));
        } else if (use.value === 'duration') {
          out.push(clockAdvanced(world, 'time', 0, sum * 3600));
        }
        return okv(out);
      },
    },

    // 001 "Rolling To Return": DC 10 + travel turns (max 20), each PC's best modifier.
    'osr.rollToReturn': {
      label: 'roll to return',
      decide(world, c, env) {
        const path = readOpt(c, 'path', ['dangerous', 'arduous'] as const, 'dangerous');
        if (!path.ok) return path;
        const who = readCharacters(world, c, 'characterIds', () => livingPcs(world));
        if (!who.ok) return who;
        const onZero = readOpt(c, 'onZero', ['dead', 'unconscious'] as const, osrSettings(world).returnZeroHp);
        if (!onZero.ok) return onZero;
        const st = getOsr(world);
        const dc = returnDc(st.turnsOut);
        const overrides = c['modifiers'];
        if (overrides !== undefined && (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))) return fail('INVALID_VALUE', 'modifiers must map character ids to numbers', 'modifiers');
        const out: EngineEvent[] = [];
        for (const id of who.value) {
          if (st.dead.includes(id)) return fail('DEAD', `${id} is dead`, 'characterIds');
          const s = sheetOf(world, id);
          const o = overrides?.[id];
          if (o !== undefined && (typeof o !== 'number' || !Number.isInteger(o) || Math.abs(o) > 30)) return fail('INVALID_VALUE', `modifiers.${id} must be a whole number within ±30`, 'modifiers');
          const m = typeof o === 'number' ? o : bestModifier(s, false) + proficiencyFor(world, id);
          const adv = checkAdvantage(world, id, {});
          const dice = rollCheckDice(env.rng, adv.advantage);
          const r = resolveCheck(dice, adv.advantage, m, dc);
          const entry: EngineEvent = { type: 'osr.returnRolled', character: id, path: path.value, dc, roll: j(r), reasons: adv.reasons };
          if (r.success) {
            out.push(entry);
            continue;
          }
          if (path.value === 'arduous') {
            const lost = Math.min(r.shortfall, s.load);
            out.push({ ...entry, loadLost: lost });
            continue;
          }
          // Dangerous: 1d6 per point under the DC; ignores armour, cannot be avoided; a natural 1 doubles it (001 "Critical Failure").
          const faces = Array.from({ length: r.shortfall }, () => env.rng.die(6));
          const doubled = naturalOneDoubles(world, id, r.natural);
          const total = damageTotal(faces, 0, doubled, osrSettings(world).critDoubles);
          out.push({ ...entry, damage: j({ faces, total, doubled }) });
          const hp = hpEvents(world, id, s.hp - total, 'the way back');
          if (s.hp - total <= 0) {
            // 0 HP on the way back: dead, or left unconscious (stable: the timer does not run).
            out.push(...hp.filter((e) => e.type === 'osr.hpChanged'));
            out.push(onZero.value === 'dead' ? { type: 'osr.died', id, reason: 'the way back' } : { type: 'osr.leftUnconscious', id });
          } else out.push(...hp);
        }
        out.push({ type: 'osr.returned', from: st.turnsOut });
        return okv(out);
      },
    },

    // 001 "Overland Travel" / "Overwater Travel": miles per day for the party (slowest member),
    // the clock moved a day at a time, travel turns daily overland / on rivers, weekly at sea.
    'osr.travel': {
      label: 'travel',
      decide(world, c, env) {
        const mode = readOpt(c, 'mode', ['overland', 'river', 'sea'] as const, 'overland');
        if (!mode.ok) return mode;
        const days = readNum(c, 'days', 1, 60, 1);
        if (!days.ok) return days;
        const approach = readOpt(c, 'approach', ['cautious', 'normal', 'careless'] as const, 'normal');
        if (!approach.ok) return approach;
        let perDay: number;
        if (mode.value === 'overland') {
          const terrain = readOpt(c, 'terrain', ['open', 'difficult', 'harsh'] as const, 'open');
          if (!terrain.ok) return terrain;
          const pace = readOpt(c, 'pace', ['normal', 'tactical', 'stealthy'] as const, 'normal');
          if (!pace.ok) return pace;
          const light = readOpt(c, 'light', LIGHT_LEVELS, 'well-lit');
          if (!light.ok) return light;
          const who = readCharacters(world, c, 'characterIds', () => livingPcs(world));
          if (!who.ok) return who;
          const party = partyPace(who.value.map((id) => travellerOf(world, id)), { terrain: terrain.value, light: light.value, pace: pace.value });
          // Someone at 0' speed cannot move, so the party cannot travel together (001 "Movement Actions", "Overland Travel").
          if (party.blocked !== null) return fail('CANNOT_TRAVEL', party.blocked, 'characterIds');
          perDay = party.perDay;
        } else {
          const vessel = readOpt(c, 'vessel', ['boat', 'ship'] as const, mode.value === 'sea' ? 'ship' : 'boat');
          if (!vessel.ok) return vessel;
          const current = readOpt(c, 'current', ['none', 'unfavourable', 'favourable'] as const, 'none');
          if (!current.ok) return current;
          perDay = overwaterMiles(vessel.value, current.value);
        }
        const moving = readBool(c, 'rollTravelTurns', true);
        if (!moving.ok) return moving;
        const out: EngineEvent[] = [{ type: 'osr.traveled', mode: mode.value, days: days.value, milesPerDay: perDay, miles: perDay * days.value }];
        const every = mode.value === 'sea' ? 7 : 1;
        let w = world;
        let turns = getOsr(world).turnsOut;
        for (let d = 1; d <= days.value; d++) {
          const tick = clockAdvanced(w, d % every === 0 ? 'travelTurn' : 'time', d % every === 0 ? 1 : 0, 24 * 3600);
          out.push(tick);
          w = { ...w, clock: { ...w.clock, seconds: Number(tick['to']) } };
          if (d % every === 0 && moving.value) {
            out.push(travelTurnEvent(w, env, approach.value, mode.value, turns));
            turns++;
          }
        }
        return okv(out);
      },
    },
  };
}
