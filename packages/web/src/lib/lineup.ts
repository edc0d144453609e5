// The encounter builder's line-up, shared with the bestiary panel (a separate
// chunk): the panel sends rows in ("Goblin" x6, a template), and reads the
// rows back to save them as a template.
import { signal } from '@preact/signals';
import type { Draft } from './initiative.ts';

/**
 * Rows for the builder to take: appended, or replacing the line-up (a template).
 * `rename`: a foe row already lined up takes a new name first ("Goblin" becomes "Goblin 1" as Goblin 2 joins).
 */
export const lineupRequest = signal<{ readonly drafts: readonly Draft[]; readonly replace: boolean; readonly rename?: { readonly from: string; readonly to: string } } | null>(null);
/** What the builder holds now. */
export const builderRows = signal<readonly Draft[]>([]);
