// Small readers for command fields: each returns the value or a typed error
// naming the field and the limit, so bad input never crashes a decide().
import { ErrorCode, ruleError } from './result.js';
import type { Command, Json, RuleError } from './types.js';

export type Read<T> = { ok: true; value: T } | { ok: false; error: RuleError };

const bad = (path: string, message: string): Read<never> => ({ ok: false, error: ruleError(ErrorCode.INVALID_VALUE, message, path) });

/** Limits on command payloads (DESIGN: explicit limits on anything a user controls). */
export const MAX_COMMAND_BYTES = 64 * 1024;
export const MAX_COMMAND_DEPTH = 16;
export const MAX_NAME = 100;

export function readString(c: Command, key: string, opts: { min?: number; max?: number; optional?: false }): Read<string>;
export function readString(c: Command, key: string, opts: { min?: number; max?: number; optional: true }): Read<string | undefined>;
export function readString(c: Command, key: string, opts: { min?: number; max?: number; optional?: boolean }): Read<string | undefined> {
  const v = c[key];
  if (v === undefined && opts.optional === true) return { ok: true, value: undefined };
  if (typeof v !== 'string') return bad(key, `${key} must be a string`);
  const s = v.trim();
  const min = opts.min ?? 1;
  const max = opts.max ?? MAX_NAME;
  if (s.length < min) return bad(key, `${key} must have at least ${min} character(s)`);
  if (s.length > max) return bad(key, `${key} is longer than the limit of ${max} characters`);
  return { ok: true, value: s };
}

export function readInt(c: Command, key: string, opts: { min: number; max: number; fallback?: number }): Read<number> {
  const v = c[key];
  if (v === undefined && opts.fallback !== undefined) return { ok: true, value: opts.fallback };
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return bad(key, `${key} must be an integer`);
  if (v < opts.min || v > opts.max) return bad(key, `${key} must be between ${opts.min} and ${opts.max}`);
  return { ok: true, value: v };
}

export function readEnum<T extends string>(c: Command, key: string, allowed: readonly T[], fallback?: T): Read<T> {
  const v = c[key];
  if (v === undefined && fallback !== undefined) return { ok: true, value: fallback };
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) return bad(key, `${key} must be one of ${allowed.join(', ')}`);
  return { ok: true, value: v as T };
}

export function readObject(c: Command, key: string, optional = true): Read<{ readonly [k: string]: Json } | undefined> {
  const v = c[key];
  if (v === undefined && optional) return { ok: true, value: undefined };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad(key, `${key} must be an object`);
  return { ok: true, value: v };
}

/** Is `v` plain JSON (finite numbers, no undefined inside arrays, no cycles, bounded depth)? */
export function isJson(v: unknown, depth = 0): v is Json {
  if (depth > MAX_COMMAND_DEPTH) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  // Loops, not every() over Object.values(): every command and event is checked, and those allocate per object.
  if (Array.isArray(v)) {
    // A hole reads as null in JSON (every() skipped holes too).
    for (let i = 0; i < v.length; i++) if (i in v && !isJson(v[i], depth + 1)) return false;
    return true;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    const r = v as Record<string, unknown>;
    for (const k in r) {
      if (!Object.hasOwn(r, k)) continue;
      const x = r[k];
      if (x !== undefined && !isJson(x, depth + 1)) return false;
    }
    return true;
  }
  return false;
}

/**
 * A copy of a value isJson accepted, equal to what a JSON round trip (JSON.parse(JSON.stringify(v)))
 * gives: keys holding undefined left out, holes read as null, -0 as 0, a "__proto__" key kept as an own
 * key. It makes no string on the way, so every command and event copied costs less time and garbage (issue 19).
 */
export function copyJson<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return (v === 0 ? 0 : v) as T;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = i in v ? copyJson(v[i] as unknown) : null;
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const r = v as Record<string, unknown>;
  for (const k in r) {
    if (!Object.hasOwn(r, k)) continue;
    const x = r[k];
    if (x === undefined) continue;
    // An assignment to "__proto__" would set the prototype; JSON.parse makes it an own key.
    if (k === '__proto__') Object.defineProperty(out, k, { value: copyJson(x), enumerable: true, writable: true, configurable: true });
    else out[k] = copyJson(x);
  }
  return out as T;
}

/** The longest a finite number prints as JSON ("-2.2250738585072014e-308" is 24 characters). */
const MAX_NUMBER_CHARS = 24;

/**
 * -1 when `v` is not plain JSON (as isJson judges it), else an upper bound of JSON.stringify(v).length: a
 * character escapes to at most 6 ("\u0000"). One walk serves both checks, and only a value whose bound
 * passes the size limit is stringified to be measured exactly (every command was, issue 19).
 */
export function jsonLengthBound(v: unknown, depth = 0): number {
  if (depth > MAX_COMMAND_DEPTH) return -1;
  if (v === null) return 4;
  if (typeof v === 'string') return 2 + 6 * v.length;
  if (typeof v === 'boolean') return 5;
  if (typeof v === 'number') return Number.isFinite(v) ? MAX_NUMBER_CHARS : -1;
  if (Array.isArray(v)) {
    let n = 2 + v.length;
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) {
        n += 4;
        continue;
      }
      const b = jsonLengthBound(v[i], depth + 1);
      if (b < 0) return -1;
      n += b;
    }
    return n;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return -1;
    const r = v as Record<string, unknown>;
    let n = 2;
    for (const k in r) {
      if (!Object.hasOwn(r, k)) continue;
      const x = r[k];
      if (x === undefined) continue;
      const b = jsonLengthBound(x, depth + 1);
      if (b < 0) return -1;
      // The key quoted, a colon and a comma.
      n += 4 + 6 * k.length + b;
    }
    return n;
  }
  return -1;
}

/** Command sanity: a plain JSON object with a string type, under the size limit. */
export function checkCommand(c: unknown): RuleError | null {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return ruleError(ErrorCode.INVALID_COMMAND, 'a command must be an object');
  const type = (c as { type?: unknown }).type;
  if (typeof type !== 'string' || type.length === 0 || type.length > 64) return ruleError(ErrorCode.INVALID_COMMAND, 'a command needs a string type (at most 64 characters)', 'type');
  const bound = jsonLengthBound(c);
  if (bound < 0) return ruleError(ErrorCode.INVALID_COMMAND, `a command must be plain JSON (finite numbers, nesting at most ${MAX_COMMAND_DEPTH})`);
  if (bound > MAX_COMMAND_BYTES && JSON.stringify(c).length > MAX_COMMAND_BYTES) return ruleError(ErrorCode.LIMIT_EXCEEDED, `a command may be at most ${MAX_COMMAND_BYTES} bytes of JSON`);
  return null;
}
