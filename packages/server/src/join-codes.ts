// Short join codes (issue 20, ADR 44): eight characters a player types on the
// landing page instead of a 22-character link. A code stands for one seat of
// one table; redeeming it mints a fresh player token for that seat (the link
// the phone then keeps), so a code is single use. Codes live in the store
// (ADR 64), hashed like tokens, so behind a balancer any instance redeems them.
import { createHash, randomBytes } from 'node:crypto';
import type { EventStore, JoinCodeRecord, TokenRecord } from './store/port.js';

/** No 0/O or 1/I: what a player reads off a screen they type back without a doubt. 32 symbols, 5 bits each. */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 8;
/** How long a code works after the GM got it. */
export const JOIN_CODE_TTL_MS = 30 * 60 * 1000;

/** A fresh code: 40 random bits (256 is a multiple of 32, so every symbol is equally likely). */
export function mintJoinCode(): string {
  const bytes = randomBytes(JOIN_CODE_LENGTH);
  let out = '';
  for (const b of bytes) out += JOIN_CODE_ALPHABET[b % JOIN_CODE_ALPHABET.length];
  return out;
}

/** "ABCD-EFGH" as the panel shows it. */
export const showJoinCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

/** A typed code in its stored form (capitals, no spaces or dashes), or why it cannot be one. */
export function readJoinCode(typed: string): { ok: true; code: string } | { ok: false; message: string } {
  const code = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (code.length !== JOIN_CODE_LENGTH) return { ok: false, message: `a join code has ${JOIN_CODE_LENGTH} letters and digits (you typed ${Math.min(code.length, 99)})` };
  const bad = [...code].find((c) => !JOIN_CODE_ALPHABET.includes(c));
  if (bad !== undefined) return { ok: false, message: `a join code has no "${bad}": it uses capital letters and the digits 2-9 (never 0, O, 1 or I)` };
  return { ok: true, code };
}

/** What the store keeps of a code (ADR 64): its SHA-256, as for tokens, never the code. */
export const hashJoinCode = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/** What the GM's Invite panel reads of a seat's latest code (ADR 57): still live, used by a phone, or none to speak of. */
export type JoinCodeState = { readonly state: 'live'; readonly expiresAt: number } | { readonly state: 'used'; readonly usedAt: number; readonly expiresAt: number } | { readonly state: 'none' };

/** A seat's stored code as the panel shows it: used (when; even once expired), live (until when), or none. */
export function joinCodeState(code: JoinCodeRecord | undefined, now = Date.now()): JoinCodeState {
  if (code === undefined) return { state: 'none' };
  if (code.usedAt !== null) return { state: 'used', usedAt: code.usedAt, expiresAt: code.expiresAt };
  return code.expiresAt > now ? { state: 'live', expiresAt: code.expiresAt } : { state: 'none' };
}

/**
 * The code book over the store (ADR 64): any instance on the same store redeems a code another minted, exactly
 * once, and reads whether it was used. Revoking a seat's player links deletes its code (EventStore.revokeTokens).
 */
export class JoinCodes {
  constructor(
    private readonly store: EventStore,
    private readonly ttlMs = JOIN_CODE_TTL_MS,
  ) {}

  /** A new code for this seat, replacing any it had (and its "used" mark). */
  async issue(tableId: string, seatId: string, now = Date.now()): Promise<{ code: string; expiresAt: number }> {
    const expiresAt = now + this.ttlMs;
    // 40 random bits: another seat holding the same hash is rare; mint again when it happens.
    for (let i = 0; i < 8; i++) {
      const code = mintJoinCode();
      if (await this.store.putJoinCode({ hash: hashJoinCode(code), tableId, seatId, expiresAt })) return { code, expiresAt };
    }
    throw new Error(`eight join codes in a row were already taken (table ${tableId}, seat ${seatId})`);
  }

  /** Each seat's latest code of a table, as the panel shows it (one read). */
  async states(tableId: string, now = Date.now()): Promise<Map<string, JoinCodeState>> {
    return new Map((await this.store.listJoinCodes(tableId)).map((c) => [c.seatId, joinCodeState(c, now)]));
  }

  /** Uses up a live code and stores `token` as its seat's link, in one step; null for an unknown, used, expired or revoked code. */
  redeem(code: string, token: TokenRecord, now = Date.now()): Promise<{ tableId: string; seatId: string } | null> {
    return this.store.redeemJoinCode(hashJoinCode(code), now, token);
  }
}
