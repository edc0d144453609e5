// Result helpers and the core's error codes. Rule errors are values, never thrown.
import type { Result, RuleError } from './types.js';

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = <T = never>(code: string, message: string, path?: string): Result<T> => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

export const ruleError = (code: string, message: string, path?: string): RuleError =>
  path === undefined ? { code, message } : { code, message, path };

/** Stable codes the core itself returns; modules add their own. */
export const ErrorCode = {
  INVALID_COMMAND: 'INVALID_COMMAND',
  UNKNOWN_COMMAND: 'UNKNOWN_COMMAND',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  INVALID_VALUE: 'INVALID_VALUE',
  /** Dice notation that does not parse (the error carries the column). */
  BAD_NOTATION: 'BAD_NOTATION',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  REACTION_LOOP: 'REACTION_LOOP',
  NOTHING_TO_UNDO: 'NOTHING_TO_UNDO',
  NOTHING_TO_REDO: 'NOTHING_TO_REDO',
  INTERNAL: 'INTERNAL',
} as const;
