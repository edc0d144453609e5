// What deciding "does this player's command name something hidden?" costs
// (ADR 18): the modules' idStatus hooks, asked about the strings the command
// holds, against the walk it replaced (every key of the GM's world, the whole
// player projection and its keys), measured in one run on one realistic OSR
// table: 10 characters (3 hidden), a 10-combatant encounter, 300 log entries.
// Run: npm run bench -- secrecy   (or: node --import tsx bench/secrecy.bench.ts)
import { Bench } from 'tinybench';
import type { Command, Table, Viewer } from '../packages/engine/src/index.js';
import { seededRng, walkRefusal } from '../packages/engine/src/testing.js';
import { engineFor } from '../packages/rulesets/src/registry.js';

const engine = engineFor('osr')!;
const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const rng = seededRng(18);
let table: Table = engine.createTable({ tableId: 't-bench', name: 'Bench table', rulesetId: 'osr', settings: {} });
const run = (command: Command, actor: Viewer = GM): void => {
  const r = engine.execute(table, command, { rng, actor });
  if (!r.ok) throw new Error(`${command.type}: ${r.error.message}`);
  table = r.value.table;
};

run({ type: 'seat.add', name: 'Ann' });
run({ type: 'seat.add', name: 'Bo' });
const ids: string[] = [];
for (let i = 0; i < 10; i++) {
  const visibility = i < 3 ? 'hidden' : i < 5 ? 'existence' : 'visible';
  const pc = i >= 5;
  run({ type: 'character.add', name: `Character ${i}`, kind: pc ? 'pc' : 'npc', visibility, seatId: pc ? (i % 2 === 0 ? 'seat-1' : 'seat-2') : null, stats: { hp: 8 + i, ac: 12, str: 10, dex: 12, con: 11, int: 9, wis: 10, cha: 8 } });
  ids.push(Object.keys(table.world.characters).find((k) => !ids.includes(k))!);
}
run({ type: 'encounter.start', combatants: ids.map((id, i) => ({ id, kind: i >= 5 ? 'pc' : 'npc', characterId: id, visibility: i < 3 ? 'hidden' : i < 5 ? 'existence' : 'visible', name: `Character ${i}`, stats: { dex: 10 + i } })) });
for (let i = 0; i < 300; i++) run({ type: 'log.note', text: `Entry ${i}: the party searches the room and finds little.`, ...(i % 3 === 0 ? { audience: { kind: 'gm' } } : {}) });
if (table.world.log.length < 300) throw new Error(`the log keeps only ${table.world.log.length} entries (log limit)`);

const annsCharacter = ids.find((id, i) => i >= 5 && table.world.characters[id]!.seatId === 'seat-1')!;
const hiddenCharacter = ids[0]!;
const ownCheck: Command = { type: 'osr.check', character: annsCharacter, dc: 12, label: 'climb the wall' };
const hiddenCheck: Command = { type: 'osr.check', character: hiddenCharacter, dc: 12 };

// The walk, then the command as the engine before ADR 18 ran it (its own check is now the cheap one).
const walkThenExecute = (command: Command): boolean => {
  const refused = walkRefusal(engine, table.world, command, ANN);
  if (refused !== null) return false;
  return engine.execute(table, command, { rng, actor: ANN }).ok;
};
const execute = (command: Command): boolean => engine.execute(table, command, { rng, actor: ANN }).ok;
// Check both decide alike before timing them.
for (const c of [ownCheck, hiddenCheck]) if (walkThenExecute(c) !== execute(c)) throw new Error(`the two paths disagree on ${JSON.stringify(c)}`);

let sink = 0;
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('own character: idStatus (now)', () => {
    sink += execute(ownCheck) ? 1 : 0;
  })
  .add('own character: walk + project (before, peer)', () => {
    sink += walkThenExecute(ownCheck) ? 1 : 0;
  })
  .add('hidden character: idStatus + probe (now)', () => {
    sink += execute(hiddenCheck) ? 1 : 0;
  })
  .add('hidden character: walk + project + probe (before, peer)', () => {
    sink += walkThenExecute(hiddenCheck) ? 1 : 0;
  });
await bench.run();

const mean = (name: string): number => {
  const r = bench.getTask(name)?.result;
  if (r === undefined || !('latency' in r)) throw new Error(`no result for ${name}`);
  return r.latency.mean;
};
console.log(`table: ${Object.keys(table.world.characters).length} characters, ${ids.length} combatants, ${table.world.log.length} log entries, ${table.transactions.length} transactions`);
for (const t of bench.tasks) console.log(`${t.name.padEnd(60)} ${(mean(t.name) * 1000).toFixed(1).padStart(10)} µs/op`);
for (const [now, before] of [
  ['own character: idStatus (now)', 'own character: walk + project (before, peer)'],
  ['hidden character: idStatus + probe (now)', 'hidden character: walk + project + probe (before, peer)'],
] as const) {
  console.log(`${now.split(':')[0]}: a player's command takes ${(mean(before) / mean(now)).toFixed(1)}x less time than with the walk`);
}
if (sink === -1) console.log('');
