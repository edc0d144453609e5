// Bytes allocated, sampled by V8's heap profiler with the objects later collected counted too (the
// garbage a hot path makes is what the collector pays for). Used by hot-path.ts and, with BENCH_ALLOC=1,
// by server.bench.ts around our rounds; sampling slows the process, so never time a run that samples.
import { Session } from 'node:inspector/promises';

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

export class AllocSampler {
  private readonly session = new Session();
  /** Bytes by function (name and where), summed over every window sampled. */
  readonly byFunction = new Map<string, number>();
  total = 0;

  /** `live`: only objects still alive when sampling stops (what a hot path keeps), not everything it made. */
  constructor(
    private readonly live = false,
    private readonly interval = 4096,
  ) {
    this.session.connect();
  }

  async start(): Promise<void> {
    const collected = !this.live;
    await this.session.post('HeapProfiler.startSampling', { samplingInterval: this.interval, includeObjectsCollectedByMajorGC: collected, includeObjectsCollectedByMinorGC: collected });
  }

  async stop(): Promise<void> {
    const { profile } = (await this.session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
    const walk = (n: SampleNode) => {
      if (n.selfSize > 0) {
        const f = n.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules|bench)\//, '$1/')}:${f.lineNumber + 1}`;
        this.byFunction.set(key, (this.byFunction.get(key) ?? 0) + n.selfSize);
        this.total += n.selfSize;
      }
      for (const c of n.children) walk(c);
    };
    walk(profile.head);
  }

  /** The total per unit of work and the top allocating functions. */
  lines(units: number, unitName: string, top = 15): string[] {
    const out = [`bytes allocated (sampled, ${this.live ? 'still alive at the end only' : 'collected objects included'}): ${(this.total / units / 1024).toFixed(1)} KB per ${unitName} over ${units} ${unitName}s`];
    for (const [k, b] of [...this.byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`${((100 * b) / this.total).toFixed(1).padStart(5)}%  ${(b / units / 1024).toFixed(2).padStart(7)} KB  ${k}`);
    return out;
  }
}
