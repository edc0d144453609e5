// Review 9: the GM's heal on a teams foe read "endurance set to 3 by the GM";
// a track the GM changes now reads as a heal, a regain or a loss, with the
// amount and the new value (the numbers only where the viewer may read them).
import { describe, expect, it } from 'vitest';
import { restoredWords } from '../../src/teams/reducers.js';

describe('teams: the GM changing a track, in words', () => {
  it('health and endurance heal, stamina and focus are regained, any track can be lost', () => {
    expect(restoredWords('Goblin 2', 'endurance', 0, 3, true)).toBe('Goblin 2 heals 3 endurance (now 3).');
    expect(restoredWords('Kira', 'health', 7, 12, true)).toBe('Kira heals 5 health (now 12).');
    expect(restoredWords('Kira', 'stamina', 1, 3, true)).toBe('Kira regains 2 stamina (now 3).');
    expect(restoredWords('Kira', 'focus', 2, 0, true)).toBe('Kira loses 2 focus (now 0).');
    expect(restoredWords('Kira', 'health', 4, 4, true)).toBe("Kira's health stays at 4.");
    expect(restoredWords('Kira', 'deathDifficulty', 10, 12, true)).toBe("Kira's death difficulty is now 12 (the GM).");
  });

  it("a foe's numbers stay out of the players' line", () => {
    const line = restoredWords('Goblin 2', 'endurance', 0, 3, false);
    expect(line).toBe('Goblin 2 heals some endurance.');
    expect(line).not.toMatch(/\d(?! )/);
    expect(restoredWords('Goblin 2', 'health', 5, 2, false)).toBe('Goblin 2 loses some health.');
  });
});
