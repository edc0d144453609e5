// A long table's JSON Lines export, shared by the import benches (import-alone
// and limits): rounds and notes with an undo and a redo every 40 commands, so
// the import replays the undo stack as a real table would.
import { seededRng, type Command } from '../packages/engine/src/index.js';
import { PROTOCOL_VERSION } from '../packages/protocol/src/index.js';
import { engineFor } from '../packages/rulesets/src/index.js';

/** The export text of a `rulesetId` table with `n` transactions (seeded: the same text every run). */
export function longExport(n: number, rulesetId = 'osr'): string {
  const engine = engineFor(rulesetId);
  if (!engine) throw new Error(`no ruleset ${rulesetId}`);
  let t = engine.createTable({ tableId: 'src', name: 'Long', rulesetId });
  const rng = seededRng(5);
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: 'src', rulesetId, name: 'Long', genesis: t.genesis })];
  for (let i = 1; i <= n; i++) {
    const c: Command = i % 40 === 0 ? { type: 'history.undo' } : i % 40 === 1 && i > 1 ? { type: 'history.redo' } : i % 3 === 0 ? { type: 'log.note', text: `note ${i}` } : { type: 'clock.advance', unit: 'round' };
    const r = engine.execute(t, c, { rng, actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`export ${i}: ${r.error.message}`);
    t = r.value.table;
    lines.push(JSON.stringify({ kind: 'transaction', version: i, commandId: null, transaction: r.value.transaction }));
  }
  return lines.join('\n') + '\n';
}
