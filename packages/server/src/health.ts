// Honest status codes: a store that cannot write is the server's problem
// (503, with the reason), never the client's (400). One mapping from a
// rejection's kind to its HTTP status, used by every route.
import type { RejectionError } from '@tablekeeper/protocol';

/** The HTTP status for a rejection: 503 for a store failure, 429 for a rate limit, 413 for size, 403 for limits and permissions, else 400. */
export function statusFor(error: RejectionError): number {
  switch (error.kind) {
    case 'UNAVAILABLE':
      return 503;
    case 'RATE_LIMITED':
      return 429;
    case 'TOO_LARGE':
      return 413;
    case 'FORBIDDEN':
    case 'LIMIT_REACHED':
      return 403;
    default:
      return 400;
  }
}

/** Why a store write failed, in words an operator can act on (SQLite result codes, then errno). */
export function storeFailureReason(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  const c = typeof code === 'string' ? code : '';
  if (c.startsWith('SQLITE_FULL') || /ENOSPC|EFBIG|disk is full|database or disk is full/i.test(message)) return `the disk is full (${c || message})`;
  if (c.startsWith('SQLITE_READONLY') || /readonly|read-only|EROFS/i.test(message)) return `the database is read-only (${c || message})`;
  if (c.startsWith('SQLITE_BUSY') || c.startsWith('SQLITE_LOCKED') || /locked/i.test(message)) return `the database is locked by another process (${c || message})`;
  if (c.startsWith('SQLITE_IOERR') || /I\/O error/i.test(message)) return `the disk refused a write (${c || message})`;
  return `the store failed: ${message}`;
}

/** True for an error thrown by the database rather than by our own code. */
export function isStoreError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && code.startsWith('SQLITE_')) || (e instanceof Error && e.name === 'SqliteError');
}
