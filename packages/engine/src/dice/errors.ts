// The one error type the dice layer throws. Every failure a user can cause
// (bad notation, a limit, a bad option to a named roll) arrives as a DiceError
// with a stable code and, for notation, the 0-based column it points at.

export type DiceErrorCode =
  | 'SYNTAX'
  | 'LIMIT'
  | 'DIVISION_BY_ZERO'
  | 'BAD_OPTION'
  | 'UNSUPPORTED';

export class DiceError extends Error {
  override readonly name = 'DiceError';
  readonly code: DiceErrorCode;
  /** 0-based column in `expression` the error points at (0 when there is no expression). */
  readonly position: number;
  /** The notation that failed ('' for named-roll options). */
  readonly expression: string;
  /** For code 'LIMIT': the name of the limit that was exceeded (e.g. 'maxDice'). */
  readonly limit: string | undefined;

  constructor(code: DiceErrorCode, message: string, position = 0, expression = '', limit?: string) {
    super(message);
    this.code = code;
    this.position = position;
    this.expression = expression;
    this.limit = limit;
  }

  /** One line: the message, then the expression with a caret under the column. */
  pointer(): string {
    if (!this.expression) return this.message;
    return `${this.expression}\n${' '.repeat(this.position)}^`;
  }
}

/** Validates an integer option of a named roll. */
export function intOption(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new DiceError('BAD_OPTION', `${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}
