// Daggerheart's explicit limits on what a command may name (kept apart so the
// declarations and the module can both read them without an import cycle).
export const MAX_MODIFIER = 30;
export const MAX_DIFFICULTY = 60;
/** Net situational advantage sources a command may name (helpers come on top). */
export const MAX_ADVANTAGE_SOURCES = 5;
export const MAX_SPEND = 12;
/** Open roll requests a table may hold at once. */
export const MAX_REQUESTS = 50;
export const MAX_EXPERIENCE_BONUS = 10;
/** The six traits a roll request may name (the published character sheet). */
export const TRAITS = ['agility', 'strength', 'finesse', 'instinct', 'presence', 'knowledge'] as const;


/** Damage one hit may deal, adversaries one stat block may add, moves it may list, characters of text in a move. */
export const MAX_DAMAGE = 500;
export const MAX_GROUP = 20;
export const MAX_MOVES = 8;
export const MAX_MOVE_TEXT = 300;
/** Downtime moves one rest may name (all PCs together). */
export const MAX_REST_MOVES = 50;

export type DowntimeMove = 'tendWounds' | 'clearStress' | 'repairArmor' | 'prepare' | 'workOnProject';
export const DOWNTIME_MOVES = ['tendWounds', 'clearStress', 'repairArmor', 'prepare', 'workOnProject'] as const satisfies readonly DowntimeMove[];
