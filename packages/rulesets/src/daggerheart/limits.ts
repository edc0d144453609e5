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

