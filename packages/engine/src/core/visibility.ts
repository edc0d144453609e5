// Projection helpers every module uses to decide what a viewer may read.
import type { Audience, Viewer, Visibility } from './types.js';

/** May `viewer` read the values of something with this visibility? (`triggered` for reveal-on-trigger). */
export function canSee(visibility: Visibility, viewer: Viewer, triggered = false): boolean {
  if (viewer.role === 'gm') return true;
  if (visibility === 'visible') return true;
  if (visibility === 'reveal-on-trigger') return triggered;
  return false;
}

/** May `viewer` know that it exists at all (and its public name)? */
export function knowsExists(visibility: Visibility, viewer: Viewer): boolean {
  return viewer.role === 'gm' || visibility !== 'hidden';
}

/** May `viewer` read a log entry or event addressed to `audience`? The GM reads everything. */
export function audienceAllows(audience: Audience, viewer: Viewer): boolean {
  if (viewer.role === 'gm') return true;
  if (audience.kind === 'all') return true;
  if (audience.kind === 'seat') return viewer.role === 'player' && viewer.seatId === audience.seatId;
  return false;
}

export const AUDIENCE_ALL: Audience = { kind: 'all' };
export const AUDIENCE_GM: Audience = { kind: 'gm' };
export const seatAudience = (seatId: string): Audience => ({ kind: 'seat', seatId });

/** The audience matching a visibility tier: only 'visible' things are announced to everyone. */
export const audienceFor = (visibility: Visibility): Audience => (visibility === 'visible' ? AUDIENCE_ALL : AUDIENCE_GM);

export const VISIBILITIES: readonly Visibility[] = ['hidden', 'existence', 'visible', 'reveal-on-trigger'];
