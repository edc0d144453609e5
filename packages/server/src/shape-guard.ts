// A typed rejection for messages nested too deeply: the path of the first
// value past the limit, found without recursion (a hostile message cannot
// overflow the stack), before the schema ever walks it.

/** Nesting allowed in a client message: a command or query's own fields get the engine's command depth, plus the envelope. */
export const MAX_MESSAGE_DEPTH = 18;

/** The path to the first value nested deeper than `maxDepth` (the root is depth 0), or null. */
export function tooDeep(root: unknown, maxDepth = MAX_MESSAGE_DEPTH): (string | number)[] | null {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: root, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return path;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: (v as Record<string, unknown>)[keys[i]!], path: [...path, keys[i]!] });
    }
  }
  return null;
}
