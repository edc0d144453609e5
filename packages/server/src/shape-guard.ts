// A typed rejection for messages nested too deeply: the path of the first
// value past the limit, found without recursion (a hostile message cannot
// overflow the stack), before the schema ever walks it.

/** Nesting allowed in a client message: a command or query's own fields get the engine's command depth, plus the envelope. */
export const MAX_MESSAGE_DEPTH = 18;

/** The walk's stacks, reused: the guard is synchronous, and runs on every message. */
const values: unknown[] = [];
const depths: number[] = [];

/** Whether nothing in `root` is nested deeper than `maxDepth`: no paths made (most messages pass; only a failure needs one). */
function withinDepth(root: unknown, maxDepth: number): boolean {
  values.length = 0;
  depths.length = 0;
  values.push(root);
  depths.push(0);
  try {
    while (values.length > 0) {
      const v = values.pop();
      const depth = depths.pop()!;
      if (v === null || typeof v !== 'object') continue;
      if (depth >= maxDepth) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          values.push(v[i]);
          depths.push(depth + 1);
        }
      } else {
        const r = v as Record<string, unknown>;
        for (const k in r) {
          if (!Object.hasOwn(r, k)) continue;
          values.push(r[k]);
          depths.push(depth + 1);
        }
      }
    }
    return true;
  } finally {
    // Nothing of the message stays reachable from the module.
    values.length = 0;
    depths.length = 0;
  }
}

/** The path to the first value nested deeper than `maxDepth` (the root is depth 0), or null. */
export function tooDeep(root: unknown, maxDepth = MAX_MESSAGE_DEPTH): (string | number)[] | null {
  if (withinDepth(root, maxDepth)) return null;
  return deepPath(root, maxDepth);
}

/** The first path (in document order) to a value past `maxDepth`. */
function deepPath(root: unknown, maxDepth: number): (string | number)[] | null {
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
