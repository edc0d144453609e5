// Issue 19: the engine parses a command's payload once per decision and hands
// that parse to the handler's authorizer and decide (markParsed), which parsed
// it again each before. Kept == fresh: for every declared command of all five
// rulesets, payloads drawn from its own schema (and a misspelt field), by the GM
// and by a seated player, the engine's decision equals the handler's own when it
// parses the command itself: same events (same dice), or the same refusal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePayload, payloadJsonSchema, seededRng, type Command, type CommandHandler, type Declaration, type EngineEvent, type Json, type Result, type Viewer, type World } from '@tablekeeper/engine';
import { sameJsonValue } from '@tablekeeper/engine/testing';
import { rulesetIds } from '../../src/registry.js';
import { arbitraryFor, GM, populated, type Schema } from './fixtures.js';

/** What the engine did before: the authorizer on the command as sent, the schema gate, then decide, each parsing it afresh. */
function unmarked(d: Declaration, handler: CommandHandler, world: World, command: Command, actor: Viewer, seed: number): Result<EngineEvent[]> | 'refused' {
  // Structured copies: objects the engine never marked.
  const denied = handler.authorize !== undefined ? handler.authorize(world, structuredClone(command), actor) : actor.role === 'gm' ? null : 'refused';
  if (denied !== null) return 'refused';
  const p = parsePayload(d, structuredClone(command));
  if (!p.ok) return 'refused';
  return handler.decide(world, { ...(p.value as object), type: command.type } as Command, { rng: seededRng(seed), actor, now: 0 });
}

describe('a payload parsed once per decision (issue 19)', () => {
  for (const rulesetId of rulesetIds) {
    it(`the engine's decision equals the handler parsing the command itself, for every declared command (${rulesetId})`, { timeout: 120_000 }, () => {
      const { engine, table, refs } = populated(rulesetId);
      const seatId = refs['seat']![0]!;
      const handlers = new Map<string, CommandHandler>();
      for (const m of engine.modules) for (const [type, h] of Object.entries(m.commands ?? {})) handlers.set(type, h);
      const commands = engine.catalog.filter((d) => d.kind === 'command' && handlers.has(d.type));
      let decided = 0;
      fc.assert(
        fc.property(fc.nat(), fc.nat(), fc.nat({ max: 3 }), fc.nat({ max: 3 }), (pick, seed, player, spelling) => {
          // One decision in four by a player, one in four with a field no schema has.
          const asPlayer = player === 0;
          const misspelt = spelling === 0;
          const d = commands[pick % commands.length]!;
          const schema = payloadJsonSchema(d) as Schema;
          const [payload] = fc.sample(arbitraryFor(schema, schema, refs), { numRuns: 1, seed }) as [{ [k: string]: Json }];
          const command: Command = { ...payload, ...(misspelt ? { notAField: 1 } : {}), type: d.type };
          const actor: Viewer = asPlayer ? { role: 'player', seatId } : GM;
          const mine = engine.decide(table.world, command, { rng: seededRng(seed), actor, now: 0 });
          const theirs = unmarked(d, handlers.get(d.type)!, table.world, command, actor, seed);
          if (theirs === 'refused' || !theirs.ok) {
            // Refused either way (the engine names schema errors its own way, so only the outcome is compared).
            expect(mine.ok, `${d.type} ${JSON.stringify(command)}`).toBe(false);
            return;
          }
          expect(mine.ok, `${d.type}: ${mine.ok ? '' : mine.error.message}`).toBe(true);
          if (mine.ok) {
            decided++;
            expect(sameJsonValue(mine.value as unknown as Json, theirs.value as unknown as Json), `${d.type} ${JSON.stringify(command)}`).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
      // Not vacuous: many commands were decided both ways.
      expect(decided).toBeGreaterThan(20);
    });
  }
});
