// Errors from the asker's own view (issue 15, ADR 10): for every command and
// query of every ruleset, a player naming a hidden character, combatant or
// countdown gets exactly what naming an id that never existed gets (code,
// message and path, with the id they sent), and nothing changes.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Engine, type Json, type Table, type Viewer } from '@tablekeeper/engine';
import { engineFor, resolveSettings, rulesetIds } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
/** Fields that name an id in some command or query. */
const ID_FIELDS = ['id', 'target', 'attacker', 'character', 'characterId', 'combatant', 'owner', 'by', 'ally', 'linkedTo', 'targetId', 'helperId', 'who', 'countdownId', 'mover', 'linkedCountdownId', 'sourceId'];

interface Fixture {
  readonly engine: Engine;
  readonly table: Table;
  /** Ids players must not see: a character, a combatant, a countdown. */
  readonly hidden: readonly string[];
  /** Ann's own character (fills the other id fields, so a command gets as far as the one under test). */
  readonly own: string;
}

function fixture(rulesetId: string): Fixture {
  const engine = engineFor(rulesetId)!;
  const settings = resolveSettings(rulesetId);
  if (!settings.ok) throw new Error(settings.error.message);
  let table = engine.createTable({ tableId: 't', name: 'Hidden or missing', rulesetId, settings: settings.value });
  const rng = seededRng(15);
  const run = (command: Command): Json[] => {
    const r = engine.execute(table, command, { rng, actor: GM });
    if (!r.ok) throw new Error(`${command.type}: ${r.error.message}`);
    table = r.value.table;
    return r.value.transaction.kind === 'command' ? (r.value.transaction.events as unknown as Json[]) : [];
  };
  const idOf = (events: Json[]): string => String((events[0] as { id: string }).id);
  run({ type: 'seat.add', name: 'Ann' });
  const own = idOf(run({ type: 'character.add', name: 'Ann\'s hero', kind: 'pc', seatId: 'seat-1', stats: { hp: 10, dex: 12, edgeSave: 1 } }));
  const lurker = idOf(run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { hp: 10, dex: 12, edgeSave: 0 } }));
  const plot = idOf(run({ type: 'countdown.create', name: 'The plot', start: 4, visibility: 'hidden' }));
  return { engine, table, hidden: [lurker, plot], own };
}

/**
 * A renamed field and its new name cannot both be sent (ADR 13's upcaster refuses that), so the
 * filler leaves out whichever of the pair is not the field under test: `countdownId` is tested as
 * itself and as the old `id` alike, and neither is refused as "both names given".
 */
function shadowed(engine: Engine, type: string, k: string, field: string): boolean {
  for (const m of engine.modules) {
    const renamed = m.catalog !== undefined && Object.hasOwn(m.catalog, type) ? m.catalog[type]!.renamed : undefined;
    if (renamed === undefined) continue;
    for (const [oldName, newName] of Object.entries(renamed)) {
      if (k === oldName && field !== oldName) return true;
      if (k === newName && field === oldName) return true;
    }
  }
  return false;
}

/** Stand-ins for a missing id: same prefix and length as the hidden one, never minted. */
const missingLike = (id: string): string => id.slice(0, id.indexOf('-') + 1) + 'q'.repeat(id.length - id.indexOf('-') - 1);

const normalise = (v: unknown, id: string): string => JSON.stringify(v).split(id).join('<id>');

describe('a hidden id answers exactly as a missing one, for every command and query (ADR 10)', () => {
  for (const rulesetId of rulesetIds) {
    it(`${rulesetId}: every command type, every id field`, () => {
      const f = fixture(rulesetId);
      const types = f.engine.modules.flatMap((m) => Object.keys(m.commands ?? {}));
      const before = JSON.stringify(f.table.world);
      let compared = 0;
      for (const type of types) {
        for (const field of ID_FIELDS) {
          for (const hidden of f.hidden) {
            const missing = missingLike(hidden);
            const base: { [k: string]: Json } = { type };
            for (const k of ID_FIELDS) if (!shadowed(f.engine, type, k, field)) base[k] = f.own;
            const ask = (id: string) => f.engine.execute(f.table, { ...base, [field]: id } as Command, { rng: seededRng(1), actor: ANN });
            const h = ask(hidden);
            const m = ask(missing);
            // Accepted (the field was plain data to this command): what happened never names the hidden thing.
            if (h.ok && h.value.transaction.kind === 'command') expect(JSON.stringify(h.value.transaction.events), `${type}.${field}`).not.toContain(hidden);
            expect(h.ok, `${type}.${field}: accepted one way, refused the other`).toBe(m.ok);
            if (!h.ok && !m.ok) expect(normalise(h.error, hidden), `${type}.${field}`).toBe(normalise(m.error, missing));
            compared++;
          }
        }
      }
      expect(compared).toBe(types.length * ID_FIELDS.length * f.hidden.length);
      expect(JSON.stringify(f.table.world)).toBe(before);
    });

    it(`${rulesetId}: every query, every id field`, () => {
      const f = fixture(rulesetId);
      const names = f.engine.modules.flatMap((m) => Object.keys(m.queries ?? {}));
      for (const name of names) {
        for (const field of ID_FIELDS) {
          for (const hidden of f.hidden) {
            const missing = missingLike(hidden);
            const args = (id: string): Json => Object.fromEntries([...ID_FIELDS.filter((k) => !shadowed(f.engine, name, k, field)).map((k) => [k, f.own] as const), [field, id] as const]);
            const h = f.engine.query(f.table, ANN, name, args(hidden));
            const m = f.engine.query(f.table, ANN, name, args(missing));
            expect(normalise(h, hidden), `${name}.${field}`).toBe(normalise(m, missing));
          }
        }
      }
    });
  }

  it('a player\'s attack on a hidden character is refused as not found and changes nothing (OSR, 001 "PC Attacks")', () => {
    const f = fixture('osr');
    const [lurker] = f.hidden;
    const attack = (target: string) => f.engine.execute(f.table, { type: 'osr.attack', attacker: f.own, target }, { rng: seededRng(3), actor: ANN });
    const h = attack(lurker!);
    const m = attack(missingLike(lurker!));
    expect(h.ok).toBe(false);
    if (h.ok || m.ok) return;
    expect(h.error.path).toBe('target');
    expect(normalise(h.error, lurker!)).toBe(normalise(m.error, missingLike(lurker!)));
    // The GM may still attack it.
    expect(f.engine.execute(f.table, { type: 'osr.attack', attacker: f.own, target: lurker! }, { rng: seededRng(3), actor: GM }).ok).toBe(true);
  });
});
