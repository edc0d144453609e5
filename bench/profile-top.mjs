// Not a bench: the top self-time functions of a `node --cpu-prof` profile, optionally cut to the
// windows between marks a bench printed (BENCH_MARKS=1 for server.bench.ts; hot-path.ts always marks).
// Run: node bench/profile-top.mjs <file.cpuprofile> [--marks <bench output file>] [--match <text in a mark>] [--top 10] [--lines <text in a function's key>]
// With --marks, only samples between each "mark X start" and its "mark X end" line count (whose X contains --match).
// --lines lists the hottest source lines of the functions whose key contains the text (whole profile: line ticks carry no time);
// profile a bundle (bench/bundle.sh) for real line numbers, as tsx's modules all report line 1.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const file = args[0];
if (file === undefined || file.startsWith('--')) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [--marks <bench output>] [--match <text>] [--top N]');
  process.exit(2);
}
const opt = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const top = Number(opt('--top') ?? 10);
const match = opt('--match') ?? '';

/** [from, to] windows in µs on the profile's clock (the monotonic clock, as the marks print it). */
const windows = [];
const marksFile = opt('--marks');
if (marksFile !== undefined) {
  const open = new Map();
  for (const line of readFileSync(marksFile, 'utf8').split('\n')) {
    // hot-path.ts marks its loop without a name ("mark start: ...").
    const m = /^mark(?: (.*))? (start|end): (\d+) us$/.exec(line.trim());
    if (m === null || !(m[1] ?? '').includes(match)) continue;
    if (m[2] === 'start') open.set(m[1], Number(m[3]));
    else if (open.has(m[1])) {
      windows.push([open.get(m[1]), Number(m[3])]);
      open.delete(m[1]);
    }
  }
  if (windows.length === 0) {
    console.error(`no start/end mark pairs matching ${JSON.stringify(match)} in ${marksFile}`);
    process.exit(2);
  }
}
const inWindow = (t) => windows.length === 0 || windows.some(([a, b]) => t >= a && t <= b);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i] ?? 0;
  if (!inWindow(t)) return;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  const f = byId.get(id).callFrame;
  const where = f.url ? `${relative(process.cwd(), f.url.replace(/^file:\/\//, ''))}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  total += dt;
});
// --by-file: self time summed per source file instead (native and V8 entries stay as they are).
if (args.includes('--by-file')) {
  const byFile = new Map();
  for (const [k, us] of self) {
    const at = k.lastIndexOf(' ');
    const file = at < 0 || k.startsWith('(') ? k : k.slice(at + 1).replace(/:\d+$/, '');
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  self.clear();
  for (const [k, us] of byFile) self.set(k, us);
}
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]);
const idle = self.get('(idle)') ?? 0;
console.log(`${(total / 1000).toFixed(0)} ms sampled${windows.length ? ` in ${windows.length} windows` : ''}, of which idle ${(idle / 1000).toFixed(0)} ms; self time as a share of the busy time:`);
for (const [key, us] of rows.filter(([k]) => k !== '(idle)').slice(0, top)) {
  console.log(`${((100 * us) / (total - idle)).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}

const linesOf = opt('--lines');
if (linesOf !== undefined) {
  const ticks = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url}`;
    if (!key.includes(linesOf) || n.positionTicks === undefined) continue;
    for (const p of n.positionTicks) {
      const k = `${f.functionName || '(anonymous)'} ${relative(process.cwd(), f.url.replace(/^file:\/\//, ''))}:${p.line}`;
      ticks.set(k, (ticks.get(k) ?? 0) + p.ticks);
    }
  }
  const all = [...ticks.values()].reduce((a, b) => a + b, 0);
  console.log(`\nhottest lines of functions matching ${JSON.stringify(linesOf)} (${all} ticks, whole profile):`);
  for (const [k, n] of [...ticks.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * n) / all).toFixed(1).padStart(5)}%  ${String(n).padStart(6)}  ${k}`);
}
