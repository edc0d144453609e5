// Own keys only (ADR 10): a lookup by a key a user typed must never reach
// Object.prototype (`constructor`, `__proto__`, `toString` are data, not phantoms).
// Exported alone as `@tablekeeper/engine/own` for the rulesets' browser entry, so it imports nothing.

/** `map[key]` if `map` has it as its own property, else undefined. */
export function own<T>(map: { readonly [key: string]: T } | undefined | null, key: string): T | undefined {
  return map !== undefined && map !== null && Object.hasOwn(map, key) ? map[key] : undefined;
}
