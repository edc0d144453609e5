// A flood of heavy table rolls from one player, and what it does to another
// table on the same server (ADR 25): the same flood against a server with
// the default budget and against one whose budget never refuses, in one run.
// The flooder keeps 4 rolls in flight, each `d(1d400)+n` with a new n (new
// text, so the compile cache never helps: about 0.1-0.2 s of compiling
// each); the other table's GM sends commands back to back. The socket's
// message limit is off on both servers, so only the roll budget differs.
// "other" refusals are mostly VERSION_CONFLICT (4 rolls in flight decided
// against one version), as a real client would see and retry.
// Run: npm run bench -- roll-flood   (env: BENCH_FLOOD_MS, default 8000 per phase)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_ROLL_LIMITS, notationCost } from '../packages/engine/src/index.js';
import type { RunningServer } from '../packages/server/src/index.js';
import { connect as connectTo, f, pct, play, post as postTo, startBenchServer } from './table-client.js';

const PHASE_MS = Number(process.env['BENCH_FLOOD_MS'] ?? 8000);
async function phase(s: RunningServer, flood: boolean): Promise<{ lat: number[]; ok: number; limited: number; other: number }> {
  const post = <T>(path: string, body: unknown, token?: string) => postTo<T>(s.url, path, body, token);
  const connect = (token: string) => connectTo(s.url, token);
  const other = await post<{ tableId: string; gmToken: string }>('/api/tables', { name: 'Other', rulesetId: 'osr' });
  const gm = await connect(other.gmToken);
  const t = await post<{ tableId: string; gmToken: string }>('/api/tables', { name: 'Flood', rulesetId: 'osr' });
  const seat = await post<{ token: string }>(`/api/tables/${t.tableId}/seats`, { name: 'Flooder' }, t.gmToken);
  const player = await connect(seat.token);
  const counts = { ok: 0, limited: 0, other: 0 };
  let stop = false;
  let n = 0;
  const flooding = flood
    ? Promise.all(
        Array.from({ length: 4 }, async () => {
          while (!stop) {
            const a = await player.command({ type: 'dice.roll', notation: `d(1d400)+${++n}` });
            const kind = (a['error'] as { kind?: string } | undefined)?.kind;
            if (a['type'] === 'ack') counts.ok++;
            else if (kind === 'RATE_LIMITED') counts.limited++;
            else counts.other++;
          }
        }),
      )
    : Promise.resolve([]);
  const end = performance.now() + PHASE_MS;
  const lat = await play(gm, () => performance.now() >= end, 20);
  stop = true;
  await flooding;
  gm.ws.close();
  player.ws.close();
  return { lat, ...counts };
}

const dirs: string[] = [];
const start = (budget: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), 'tk-roll-flood-'));
  dirs.push(dir);
  // The socket's message limit is off; only the roll budget differs between the two servers.
  return startBenchServer(join(dir, 'db.sqlite'), budget ? {} : { queryBudget: { seatCapacity: 1e12, seatPerSecond: 1e12, tableCapacity: 1e12, tablePerSecond: 1e12 } });
};

try {
  console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}, load ${loadavg().map((x) => f(x)).join(' ')}; server and clients in one process`);
  console.log(`flood notation d(1d400)+n costs ${notationCost('d(1d400)+1', TABLE_ROLL_LIMITS).units} units (default budget: 400 per seat, +100 a second)`);
  for (const budget of [true, false]) {
    const s = await start(budget);
    const quiet = await phase(s, false);
    const flooded = await phase(s, true);
    const name = budget ? 'default budget' : 'no budget (peer)';
    console.log(
      `${name.padEnd(17)}: other table quiet p50 ${f(pct(quiet.lat, 50))} / p99 ${f(pct(quiet.lat, 99))} ms; flooded p50 ${f(pct(flooded.lat, 50))} / p99 ${f(pct(flooded.lat, 99))} ms ` +
        `(${flooded.lat.length} commands); ratio p50 ${f(pct(flooded.lat, 50) / pct(quiet.lat, 50), 2)}x, p99 ${f(pct(flooded.lat, 99) / pct(quiet.lat, 99), 2)}x; ` +
        `rolls ${flooded.ok} acked, ${flooded.limited} RATE_LIMITED, ${flooded.other} other`,
    );
    await s.close();
  }
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
