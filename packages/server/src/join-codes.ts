// Short join codes (issue 20, ADR 44): eight characters a player types on the
// landing page instead of a 22-character link. A code stands for one seat of
// one table; redeeming it mints a fresh player token for that seat (the link
// the phone then keeps), so a code is single use. Codes live in memory only:
// they expire after a while anyway, a restart just means asking for a new one.
import { createHash, randomBytes } from 'node:crypto';

/** No 0/O or 1/I: what a player reads off a screen they type back without a doubt. 32 symbols, 5 bits each. */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 8;
/** How long a code works after the GM got it. */
export const JOIN_CODE_TTL_MS = 30 * 60 * 1000;
/** Live codes remembered at once, over all tables (the oldest go first). */
export const MAX_JOIN_CODES = 20_000;

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

const hashOf = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

interface Entry {
  readonly tableId: string;
  readonly seatId: string;
  readonly expiresAt: number;
}

/** What the GM's Invite panel reads of a seat's latest code (ADR 57): still live, used by a phone, or none to speak of. */
export type JoinCodeState = { readonly state: 'live'; readonly expiresAt: number } | { readonly state: 'used'; readonly usedAt: number; readonly expiresAt: number } | { readonly state: 'none' };

export class JoinCodes {
  private readonly byHash = new Map<string, Entry>();
  /** One live code per seat: a new one replaces the old (key: table and seat). */
  private readonly bySeat = new Map<string, string>();
  /** When a seat's latest code was used (and when it would have expired: which code it was), until the seat gets a new one or is revoked; bounded like the codes. */
  private readonly usedBySeat = new Map<string, { readonly usedAt: number; readonly expiresAt: number }>();

  constructor(
    private readonly ttlMs = JOIN_CODE_TTL_MS,
    private readonly max = MAX_JOIN_CODES,
  ) {}

  /** A new code for this seat, replacing any it had. */
  issue(tableId: string, seatId: string, now = Date.now()): { code: string; expiresAt: number } {
    this.revoke(tableId, seatId);
    let code = mintJoinCode();
    for (let i = 0; i < 8 && this.byHash.has(hashOf(code)); i++) code = mintJoinCode();
    const h = hashOf(code);
    if (this.byHash.size >= this.max) this.forget(this.byHash.keys().next().value as string);
    const expiresAt = now + this.ttlMs;
    this.byHash.set(h, { tableId, seatId, expiresAt });
    this.bySeat.set(`${tableId}\u0000${seatId}`, h);
    this.usedBySeat.delete(`${tableId}\u0000${seatId}`);
    return { code, expiresAt };
  }

  /** The seat's latest code as the GM's panel shows it: live (until when), used (when), or none (expired, revoked, never issued). */
  stateOf(tableId: string, seatId: string, now = Date.now()): JoinCodeState {
    const k = `${tableId}\u0000${seatId}`;
    const used = this.usedBySeat.get(k);
    if (used !== undefined) return { state: 'used', ...used };
    const h = this.bySeat.get(k);
    const e = h === undefined ? undefined : this.byHash.get(h);
    return e !== undefined && e.expiresAt > now ? { state: 'live', expiresAt: e.expiresAt } : { state: 'none' };
  }

  /** The seat a live code stands for, used up by this call; null for an unknown, used or expired code. */
  redeem(code: string, now = Date.now()): { tableId: string; seatId: string } | null {
    const h = hashOf(code);
    const e = this.byHash.get(h);
    if (e === undefined) return null;
    const latest = this.bySeat.get(`${e.tableId}\u0000${e.seatId}`) === h;
    this.forget(h);
    if (e.expiresAt <= now) return null;
    // Only the seat's latest code can be used (issue replaces the rest), so the panel's "used" is about the code it shows.
    if (latest) this.markUsed(`${e.tableId}\u0000${e.seatId}`, { usedAt: now, expiresAt: e.expiresAt });
    return { tableId: e.tableId, seatId: e.seatId };
  }

  /** Codes of one seat, or of every seat of the table, stop working (with the seat's links). */
  revoke(tableId: string, seatId?: string): void {
    if (seatId !== undefined) {
      const h = this.bySeat.get(`${tableId}\u0000${seatId}`);
      if (h !== undefined) this.forget(h);
      this.usedBySeat.delete(`${tableId}\u0000${seatId}`);
      return;
    }
    for (const [h, e] of [...this.byHash]) if (e.tableId === tableId) this.forget(h);
    for (const k of [...this.usedBySeat.keys()]) if (k.startsWith(`${tableId}\u0000`)) this.usedBySeat.delete(k);
  }

  private markUsed(k: string, used: { readonly usedAt: number; readonly expiresAt: number }): void {
    this.usedBySeat.delete(k);
    if (this.usedBySeat.size >= this.max) this.usedBySeat.delete(this.usedBySeat.keys().next().value as string);
    this.usedBySeat.set(k, used);
  }

  get size(): number {
    return this.byHash.size;
  }

  private forget(h: string): void {
    const e = this.byHash.get(h);
    if (e === undefined) return;
    this.byHash.delete(h);
    const k = `${e.tableId}\u0000${e.seatId}`;
    if (this.bySeat.get(k) === h) this.bySeat.delete(k);
  }
}
