// Typed results for the ruleset's pure functions (errors are values, never thrown).
import type { Result, RuleError } from '@tablekeeper/engine';

export type R<T> = Result<T>;

export function okR<T>(value: T): R<T> {
  return { ok: true, value };
}

export function errR<T = never>(code: string, message: string, path?: string): R<T> {
  const error: RuleError = path === undefined ? { code, message } : { code, message, path };
  return { ok: false, error };
}
