// Walks over plain JSON values: the strings a command names and the keys where a world keeps its
// records. Shared by the engine's hidden-id check and the secrecy suite's reference walk.
/** Every string value and key inside a command. */
export function collectStrings(v: unknown, out: Set<string>): void {
  if (typeof v === 'string') out.add(v);
  else if (Array.isArray(v)) for (const x of v) collectStrings(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      collectStrings(x, out);
    }
  }
}

/**
 * Every key of a world whose value is a record or a list: where ids live
 * (characters, combatants, countdowns, sheets...), leaving out plain fields.
 */
export function collectKeys(v: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(v)) for (const x of v) collectKeys(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (x !== null && typeof x === 'object') out.add(k);
      collectKeys(x, out);
    }
  }
  return out;
}
