// Recent tables on this device: the GM and player links opened here, kept in
// localStorage so a GM who closed the tab finds the table again. Only what
// the link already holds (its fragment) and what the table showed (name,
// rules, role) is kept; nothing is sent anywhere.
export interface RecentTable {
  /** The link's fragment ("gm=…", "seat=…", "spectator=…"): the key, and how to reopen it. */
  readonly hash: string;
  readonly name: string;
  readonly rulesetId: string;
  readonly role: 'gm' | 'player' | 'spectator';
  /** Seat name for a player link. */
  readonly seat?: string;
  /** Epoch ms of the last visit (the list is newest first). */
  readonly seen: number;
}

export const RECENT_KEY = 'tablekeeper.recent';
/** Most links kept; the oldest fall off. */
export const MAX_RECENT = 20;

/** The two calls of Web Storage used here (typed locally so Node tests need no DOM types). */
type Store = { getItem(key: string): string | null; setItem(key: string, value: string): void };

function valid(x: unknown): x is RecentTable {
  if (x === null || typeof x !== 'object') return false;
  const r = x as { [k: string]: unknown };
  return typeof r['hash'] === 'string' && /^(gm|seat|spectator)=[^&\s]{8,200}$/.test(r['hash']) && typeof r['name'] === 'string' && typeof r['rulesetId'] === 'string' && (r['role'] === 'gm' || r['role'] === 'player' || r['role'] === 'spectator') && typeof r['seen'] === 'number';
}

/** The list, newest first; anything unreadable in storage is skipped, never thrown. */
export function readRecent(store: Store | null): RecentTable[] {
  if (store === null) return [];
  try {
    const raw = JSON.parse(store.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter(valid).sort((a, b) => b.seen - a.seen).slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

function write(store: Store | null, list: readonly RecentTable[]): RecentTable[] {
  const kept = [...list].sort((a, b) => b.seen - a.seen).slice(0, MAX_RECENT);
  try {
    store?.setItem(RECENT_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or disabled (private mode): the list is a convenience, the table goes on.
  }
  return kept;
}

/** Remember (or refresh) one link; the same link appears once. */
export function remember(store: Store | null, entry: RecentTable): RecentTable[] {
  if (!valid(entry)) return readRecent(store);
  return write(store, [entry, ...readRecent(store).filter((r) => r.hash !== entry.hash)]);
}

export function forget(store: Store | null, hash: string): RecentTable[] {
  return write(store, readRecent(store).filter((r) => r.hash !== hash));
}

/** localStorage when the browser allows it (it throws in some private modes). */
export function deviceStore(): Store | null {
  try {
    return (globalThis as { localStorage?: Store }).localStorage ?? null;
  } catch {
    return null;
  }
}

/** What a bad link screen says: why, and what to do. */
export function linkProblem(closeReason: string | null): string {
  const why = closeReason ?? 'This link does not open a table: it may be mistyped, revoked or expired.';
  return `${why.replace(/\.?$/, '.')} Ask the GM for a new link, or open a table from your recent tables.`;
}
