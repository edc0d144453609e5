// An action roll against an adversary (issue 20, ADR 79): a PC's attack on a
// foe is an action roll whose difficulty is the foe's Difficulty (the
// published game; 000 names Difficulty on adversary stat blocks). What a
// player may know of that Difficulty follows the table's foe reveal (ADR 33:
// Difficulty is a defence), so both the command and the odds read it here.
import { err, foeRevealOf, ok, own, type Character, type Result, type World } from '@tablekeeper/engine';

export interface Against {
  readonly target: Character;
  readonly difficulty: number;
  /** Players may not read the Difficulty (foes' defences kept, or a foe they do not see by name). */
  readonly secret: boolean;
  /** The foe's name as players read it: its name when they see it, else null (never on a phone). */
  readonly shownName: string | null;
}

const wholeNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** The adversary a roll names, read off the (GM's) world, or a refusal in words at `targetId`. */
export function againstOf(world: World, targetId: string): Result<Against> {
  const target = own(world.characters, targetId);
  if (target === undefined) return err('NOT_FOUND', `targetId: no character ${JSON.stringify(targetId).slice(0, 40)}`, 'targetId');
  if (target.stats['adversary'] !== true) return err('DH_NOT_AN_ADVERSARY', `${target.name} is not an adversary: a roll against a foe uses an adversary's Difficulty`, 'targetId');
  const difficulty = wholeNumber(target.stats['difficulty']);
  if (difficulty === null) return err('DH_NO_DIFFICULTY', `${target.name}'s stat block has no Difficulty to roll against`, 'targetId');
  const named = target.visibility === 'visible';
  const secret = !named || foeRevealOf(world) === 'none';
  return ok({ target, difficulty, secret, shownName: named ? target.name : null });
}

/** "Agility roll against Imp 2 (stab it)": the trait's roll (or an action roll), the foe when named, the player's words. */
export function againstLabel(trait: string, foe: string | null, words: string): string {
  const what = trait === '' ? 'action roll' : `${trait[0]!.toUpperCase()}${trait.slice(1)} roll`;
  return `${what}${foe === null ? '' : ` against ${foe}`}${words === '' ? '' : ` (${words})`}`;
}
