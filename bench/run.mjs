// `npm run bench`: runs every bench/*.bench.ts in one process each, one after
// the other, so figures measured in the same run share the machine state.
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const only = process.argv[2];
const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
console.log(`# Tablekeeper benchmarks — ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, Node ${process.version}, ${os.platform()} ${os.arch()}`);
// Every bench process runs with the server's Node flags, as `npm start` runs the server (packages/server/node-flags.json,
// ADR 126: a 32 MB young generation); BENCH_NODE_FLAGS adds more (a later flag of the same name wins).
const serverFlags = JSON.parse(readFileSync(new URL('../packages/server/node-flags.json', import.meta.url), 'utf8'));
const extraFlags = [...serverFlags, ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
let failed = 0;
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [...extraFlags, '--import', 'tsx', new URL(f, import.meta.url).pathname], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
