// moduleStatesOf (issue 17): each module's state as opaque values, compared by
// identity by a client that must not know any module's layout (the web's
// actions and reactions panels ask again when one changes).
import { describe, expect, it } from 'vitest';
import { bestiaryModule } from '../../src/bestiary/index.js';
import { countdownsModule } from '../../src/countdowns/index.js';
import { moduleStatesOf, scenario } from '../../src/core/index.js';

describe('moduleStatesOf', () => {
  it('lists every module state but those named, in module-id order; a module a command leaves alone keeps its identity', () => {
    const s = scenario([countdownsModule, bestiaryModule()], { seed: 3 });
    s.run({ type: 'countdown.create', name: 'Doom', start: 4 });
    s.run({ type: 'bestiary.save', name: 'Goblin', block: { hp: 7 } });
    const ids = Object.keys(s.world.ext).sort();
    expect(ids).toEqual(expect.arrayContaining(['bestiary', 'countdowns']));
    expect(moduleStatesOf(s.world)).toEqual(ids.map((k) => s.world.ext[k]));
    const before = moduleStatesOf(s.world, ['bestiary']);
    expect(before).toHaveLength(ids.length - 1);
    expect(before).not.toContain(s.world.ext['bestiary']);
    s.run({ type: 'bestiary.save', name: 'Orc', block: { hp: 15 } });
    const after = moduleStatesOf(s.world, ['bestiary']);
    expect(after).toHaveLength(before.length);
    after.forEach((st, i) => expect(st).toBe(before[i]));
    s.run({ type: 'countdown.create', name: 'Dawn', start: 6 });
    expect(moduleStatesOf(s.world, ['bestiary']).some((st, i) => st !== before[i])).toBe(true);
  });
});
