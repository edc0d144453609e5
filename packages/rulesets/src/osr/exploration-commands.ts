// Commands for 001 "Travel Turns", "Timekeeping", "Light", "Rolling To
// Return", "Overland Travel" and "Overwater Travel", all on the one clock.
import { clockAdvanced, handlerOf, mintId, stored, type CommandHandler, type EngineEvent, type Env, type World, own } from '@tablekeeper/engine';
import { resolveCheck } from './checks.js';
import { osrCommands } from './declarations.js';
import type { OsrEvent } from './events.js';
import { CADENCE_HOURS, LIGHT_SOURCES, hourFromTimeDice, overwaterMiles, partyPace, vesselOn, quarterOf, returnDc, secondsUntilHour, travelTurnRow, type Cadence, type LightSourceKind, type Traveller } from './exploration.js';
import { osrSettings } from './settings.js';
import { checkAdvantage, controls, fail, hpEvents, needCharacter, needCharacters, okv } from './shared.js';
import { bestModifier, carriedLoad, purseDropped, purseLoads } from './sheet.js';
import { getOsr, sheetOf } from './state.js';
import { rollCheckDice } from './rolls.js';
import { naturalOneDoubles, proficiencyFor } from './combat-commands.js';
import { damageTotal } from './combat.js';

/** One travel-turn roll (d20, with advantage for a cautious party, disadvantage for a careless one). */
function travelTurnEvent(world: World, env: Env, approach: 'cautious' | 'normal' | 'careless', cadence: Cadence, turnsOut: number): EngineEvent {
  const a = approach === 'cautious' ? 1 : approach === 'careless' ? -1 : 0;
  const dice = rollCheckDice(env.rng, a);
  const natural = a === 1 ? Math.max(...dice) : a === -1 ? Math.min(...dice) : dice[0]!;
  const row = travelTurnRow(natural);
  return { type: 'osr.travelTurnRolled', dice, approach, natural, band: row.band, prompts: [...row.prompts], cadence, turnsOut: turnsOut + 1, hour: Math.floor(world.clock.seconds / 3600) % 24 } satisfies OsrEvent;
}

/** One traveller's pace inputs from the sheet and the table's exhaustion list. */
export function travellerOf(world: World, id: string): Traveller {
  const s = sheetOf(world, id);
  return { id, name: world.characters[id]?.name ?? id, str: s.str, load: carriedLoad(s), speed: s.speed, exhausted: getOsr(world).exhausted.includes(id) };
}

/** Who rolls to return when the GM names nobody: the PCs neither dead nor dying. */
export const livingPcs = (world: World): string[] => {
  const st = getOsr(world);
  return Object.values(world.characters)
    .filter((c) => c.kind === 'pc' && !st.dead.includes(c.id) && st.dying[c.id] === undefined)
    .map((c) => c.id);
};

const d = osrCommands;

export function explorationCommands(): { [type: string]: CommandHandler } {
  return {
    // 001 "Travel Turns": an hour (or the cadence's span) passes, then the GM's d20 on the table.
    'osr.travelTurn': handlerOf(d.travelTurn, {
      label: 'take a travel turn',
      decide(world, p, env) {
        const cadence = p.cadence ?? 'dungeon';
        const tick = clockAdvanced(world, 'travelTurn', 1, CADENCE_HOURS[cadence] * 3600);
        return okv([tick, travelTurnEvent(world, env, p.approach ?? 'normal', cadence, getOsr(world).turnsOut)]);
      },
    }),

    // 001 "Travel Turns": in a dungeon every 3-4 scenes, rooms or encounters count as an hour.
    'osr.scene': handlerOf(d.scene, {
      label: 'count a scene',
      decide(world, p, env) {
        const st = getOsr(world);
        const n = st.scenes + 1;
        if (n < osrSettings(world).scenesPerTravelTurn) return okv([{ type: 'osr.sceneCounted', scenes: n } satisfies OsrEvent]);
        return okv([{ type: 'osr.sceneCounted', scenes: 0 } satisfies OsrEvent, clockAdvanced(world, 'travelTurn', 1, 3600), travelTurnEvent(world, env, p.approach ?? 'normal', 'dungeon', st.turnsOut)]);
      },
    }),

    // The party reaches safety by play (not a roll): the roll-to-return count starts again.
    'osr.reachSafety': handlerOf(d.reachSafety, {
      label: 'reach safety',
      decide(world) {
        return okv([{ type: 'osr.returned', from: getOsr(world).turnsOut } satisfies OsrEvent]);
      },
    }),

    // 001 "Light": the GM states the scene's light level.
    'osr.setLight': handlerOf(d.setLight, {
      label: 'set the light',
      decide(world, p) {
        return okv([{ type: 'osr.lightSet', level: p.level ?? 'well-lit', from: getOsr(world).ambient } satisfies OsrEvent]);
      },
    }),

    // Torches burn one hour, lanterns three (001 "Travel Turns", "Light"); they go out on the clock.
    'osr.lightSource': handlerOf(d.lightSource, {
      label: 'light a torch or lantern',
      authorize: (world, p, actor) => (actor.role === 'gm' || (p.characterId !== undefined && controls(world, actor, p.characterId)) ? null : { code: 'FORBIDDEN', message: "players light their own characters' sources" }),
      decide(world, p, env) {
        const kind = (p.kind ?? 'torch') as LightSourceKind;
        let owner: string | null = null;
        if (p.characterId !== undefined) {
          const o = needCharacter(world, p.characterId, 'characterId');
          if (!o.ok) return o;
          owner = o.value;
        }
        if (Object.keys(getOsr(world).sources).length >= 200) return fail('LIMIT_EXCEEDED', 'at most 200 light sources at a table');
        const [id] = mintId(world, 'light', env.rng);
        const seconds = LIGHT_SOURCES[kind].hours * 3600;
        return okv([{ type: 'osr.sourceLit', sourceId: id, kind, characterId: owner, label: p.label ?? kind, burnsOutAt: world.clock.seconds + seconds } satisfies OsrEvent]);
      },
    }),
    'osr.douse': handlerOf(d.douse, {
      label: 'put out a light',
      decide(world, p) {
        const s = own(getOsr(world).sources, p.sourceId);
        if (s === undefined) return fail('NOT_FOUND', `no light source ${JSON.stringify(p.sourceId)}`, 'sourceId');
        if (s.burnsOutAt === null) return fail('NOT_BURNING', 'that light is already out', 'sourceId');
        return okv([{ type: 'osr.sourceDoused', sourceId: s.id, remaining: s.burnsOutAt - world.clock.seconds } satisfies OsrEvent]);
      },
    }),
    'osr.relight': handlerOf(d.relight, {
      label: 'relight',
      decide(world, p) {
        const s = own(getOsr(world).sources, p.sourceId);
        if (s === undefined) return fail('NOT_FOUND', `no light source ${JSON.stringify(p.sourceId)}`, 'sourceId');
        if (s.burnsOutAt !== null) return fail('BURNING', 'that light is already burning', 'sourceId');
        if (s.remaining <= 0) return fail('SPENT', 'that light has burned out', 'sourceId');
        return okv([{ type: 'osr.sourceLit', sourceId: s.id, kind: s.kind, characterId: s.owner, label: s.label, burnsOutAt: world.clock.seconds + s.remaining } satisfies OsrEvent]);
      },
    }),

    // 001 "Timekeeping": roll 1-4 time dice for an hour (the sum) or a duration in hours;
    // `from` sets a starting hour and the dice add to it. 'clock' moves the clock to that hour.
    'osr.rollTime': handlerOf(d.rollTime, {
      label: 'roll time dice',
      decide(world, p, env) {
        const from = p.from ?? 0;
        const use = p.use ?? 'show';
        const faces = Array.from({ length: p.dice ?? 1 }, () => env.rng.die(6));
        const sum = faces.reduce((a, b) => a + b, 0);
        const hour = (from + hourFromTimeDice(faces)) % 24;
        const out: EngineEvent[] = [{ type: 'osr.timeRolled', faces, from, sum, hour, quarter: quarterOf(hour), use } satisfies OsrEvent];
        if (use === 'clock') {
          const wait = secondsUntilHour(world.clock.seconds, hour);
          if (wait > 0) out.push(clockAdvanced(world, 'time', 0, wait));
        } else if (use === 'duration') {
          out.push(clockAdvanced(world, 'time', 0, sum * 3600));
        }
        return okv(out);
      },
    }),

    // 001 "Rolling To Return": DC 10 + travel turns (max 20), each PC's best modifier.
    'osr.rollToReturn': handlerOf(d.rollToReturn, {
      label: 'roll to return',
      decide(world, p, env) {
        const path = p.path ?? 'dangerous';
        const who = needCharacters(world, p.characterIds, 'characterIds', () => livingPcs(world));
        if (!who.ok) return who;
        const onZero = p.onZero ?? osrSettings(world).returnZeroHp;
        const st = getOsr(world);
        const dc = returnDc(st.turnsOut);
        const out: EngineEvent[] = [];
        for (const id of who.value) {
          if (st.dead.includes(id)) return fail('DEAD', `${id} is dead`, 'characterIds');
          const s = sheetOf(world, id);
          // Own keys only: a character id such as "constructor" must not read Object's member.
          const o = p.modifiers === undefined ? undefined : own(p.modifiers, id);
          const m = o ?? bestModifier(s, false) + proficiencyFor(world, id);
          const adv = checkAdvantage(world, id, {});
          const dice = rollCheckDice(env.rng, adv.advantage);
          const r = resolveCheck(dice, adv.advantage, m, dc);
          const entry = { type: 'osr.returnRolled', characterId: id, path, dc, roll: r, reasons: adv.reasons } satisfies OsrEvent;
          if (r.success) {
            out.push(stored(entry));
            continue;
          }
          if (path === 'arduous') {
            // One load per point short from everything carried (coins weigh too, ADR 105): the GM's choice says
            // whether the purse goes before the gear or after it (ADR 111); what is not carried cannot be lost.
            const purseFirst = p.purse === 'first';
            const inPurse = purseLoads(s);
            const fromPurse = purseFirst ? Math.min(r.shortfall, inPurse) : Math.min(Math.max(0, r.shortfall - s.load), inPurse);
            const gear = Math.min(r.shortfall - fromPurse, s.load);
            const purseLost = fromPurse > 0 ? { ...purseDropped(s, fromPurse), loads: fromPurse } : undefined;
            out.push(stored({ ...entry, loadLost: gear, ...(purseLost === undefined ? {} : { purseLost }), ...(purseFirst ? { purseFirst: true as const } : {}) } satisfies OsrEvent));
            continue;
          }
          // Dangerous: 1d6 per point under the DC; ignores armour, cannot be avoided; a natural 1 doubles it (001 "Critical Failure").
          const faces = Array.from({ length: r.shortfall }, () => env.rng.die(6));
          const doubled = naturalOneDoubles(world, id, r.natural);
          const total = damageTotal(faces, 0, doubled, osrSettings(world).critDoubles);
          out.push(stored({ ...entry, damage: { faces, total, doubled } } satisfies OsrEvent));
          const hp = hpEvents(world, id, s.hp - total, 'the way back');
          if (s.hp - total <= 0) {
            // 0 HP on the way back: dead, or left unconscious (stable: the timer does not run).
            out.push(...hp.filter((e) => e.type === 'osr.hpChanged'));
            out.push(onZero === 'dead' ? ({ type: 'osr.died', characterId: id, reason: 'the way back' } satisfies OsrEvent) : ({ type: 'osr.leftUnconscious', characterId: id } satisfies OsrEvent));
          } else out.push(...hp);
        }
        out.push({ type: 'osr.returned', from: st.turnsOut } satisfies OsrEvent);
        return okv(out);
      },
    }),

    // 001 "Overland Travel" / "Overwater Travel": miles per day for the party (slowest member),
    // the clock moved a day at a time, travel turns daily overland / on rivers, weekly at sea.
    'osr.travel': handlerOf(d.travel, {
      label: 'travel',
      decide(world, p, env) {
        const mode = p.mode ?? 'overland';
        const days = p.days ?? 1;
        const approach = p.approach ?? 'normal';
        let perDay: number;
        if (mode === 'overland') {
          const who = needCharacters(world, p.characterIds, 'characterIds', () => livingPcs(world));
          if (!who.ok) return who;
          const party = partyPace(who.value.map((id) => travellerOf(world, id)), { terrain: p.terrain ?? 'open', light: p.light ?? 'well-lit', pace: p.pace ?? 'normal' });
          // Someone at 0' speed cannot move, so the party cannot travel together (001 "Movement Actions", "Overland Travel").
          if (party.blocked !== null) return fail('CANNOT_TRAVEL', party.blocked, 'characterIds');
          perDay = party.perDay;
        } else {
          const water = mode === 'sea' ? 'sea' : 'river';
          if (p.vessel !== undefined && p.vessel !== vesselOn(water)) {
            return fail('INVALID_VALUE', water === 'sea' ? '001 "Overwater Travel" gives a speed at sea for a ship only (100 miles a day); choose ship' : '001 "Overwater Travel" gives a river or lake a boat\'s speed (30 miles a day); a ship\'s 100 is for the sea', 'vessel');
          }
          perDay = overwaterMiles(vesselOn(water), p.current ?? 'none');
        }
        const moving = p.rollTravelTurns ?? true;
        const out: EngineEvent[] = [{ type: 'osr.traveled', mode, days, milesPerDay: perDay, miles: perDay * days } satisfies OsrEvent];
        const every = mode === 'sea' ? 7 : 1;
        let w = world;
        let turns = getOsr(world).turnsOut;
        for (let day = 1; day <= days; day++) {
          const tick = clockAdvanced(w, day % every === 0 ? 'travelTurn' : 'time', day % every === 0 ? 1 : 0, 24 * 3600);
          out.push(tick);
          w = { ...w, clock: { ...w.clock, seconds: Number(tick['to']) } };
          if (day % every === 0 && moving) {
            out.push(travelTurnEvent(w, env, approach, mode, turns));
            turns++;
          }
        }
        return okv(out);
      },
    }),
  };
}
