// What a tracker row reads from a kept sheet, apart from the GM's sheet editor
// (lib/sheetEditor.ts): the phone shows these numbers and loads no editor code.
import type { Json, World } from '@tablekeeper/engine';
import { keptSheetTrack, lifeFlags } from '@tablekeeper/rulesets/browser';

/**
 * The 36th Way and teams keep hit points on a sheet keyed by combatant (or naming
 * the character), and their attacks damage that sheet, not the combatant's stats:
 * a tracker row reads them here so it never shows stale HP. OSR's dead and dying
 * (kept in its own state) come as flags, so a dead PC reads dead, not "HP 0/9 down".
 */
export function sheetTrackOf(world: World, c: { readonly id: string; readonly characterId: string | null }): { [k: string]: Json } {
  return { ...keptSheetTrack(world, c.id, c.characterId), ...lifeFlags(world, c.characterId) };
}
