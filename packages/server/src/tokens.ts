// Capability tokens: 128 random bits from node:crypto, base64url (URL-fragment
// safe), independent of each other. Only SHA-256 hashes are stored, so a copy
// of the database does not grant access.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_BYTES = 16;

export function mintToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Table ids are public (they appear in API paths) but unguessable anyway. */
export function mintTableId(): string {
  return 't_' + randomBytes(9).toString('base64url');
}

/** `Authorization: Bearer <token>` -> token, or null. */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/.exec(header);
  return m ? m[1]! : null;
}
