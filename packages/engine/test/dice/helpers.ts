// Brute-force enumeration for checking exact distributions in tests.
import type { Pmf } from '../../src/dice/index.js';

/** Every combination of faces for dice with the given sides, with its probability. */
export function* outcomes(sides: readonly number[]): Generator<[number[], number]> {
  const p = 1 / sides.reduce((a, b) => a * b, 1);
  const faces = sides.map(() => 1);
  for (;;) {
    yield [faces.slice(), p];
    let i = sides.length - 1;
    while (i >= 0 && faces[i] === sides[i]) faces[i--] = 1;
    if (i < 0) return;
    faces[i]!++;
  }
}

export function bruteForce(sides: readonly number[], f: (faces: number[]) => number): Map<number, number> {
  const m = new Map<number, number>();
  for (const [faces, p] of outcomes(sides)) {
    const v = f(faces);
    m.set(v, (m.get(v) ?? 0) + p);
  }
  return m;
}

/** Largest absolute difference between a Pmf and a brute-force map. */
export function maxDiff(pmf: Pmf, m: Map<number, number>): number {
  let d = 0;
  for (const [v, p] of m) d = Math.max(d, Math.abs(pmf.probability(v) - p));
  for (const [v, p] of pmf.entries()) d = Math.max(d, Math.abs((m.get(v) ?? 0) - p));
  return d;
}

export function sumOf(pmf: Pmf): number {
  return pmf.entries().reduce((s, [, p]) => s + p, 0);
}
