// Names of an adversary group (browser entry, ADR 7: imports nothing), so the
// command and the GM's bestiary note name the same Bandit 4 and 5.

/**
 * The highest number already used by a group named `name` among `taken`: a
 * plain "Bandit" counts as 1, "Bandit 3" as 3; 0 when the name is free.
 */
export function groupNumberAfter(name: string, taken: readonly string[]): number {
  let best = 0;
  for (const t of taken) {
    if (t === name) best = Math.max(best, 1);
    else if (t.startsWith(`${name} `) && /^\d{1,4}$/.test(t.slice(name.length + 1))) best = Math.max(best, Number(t.slice(name.length + 1)));
  }
  return best;
}

/** The names `count` adversaries of a group called `name` get beside the `taken` names. */
export function groupNames(name: string, count: number, taken: readonly string[]): string[] {
  const after = groupNumberAfter(name, taken);
  if (count === 1 && after === 0) return [name];
  return Array.from({ length: count }, (_, i) => `${name} ${after + i + 1}`);
}
