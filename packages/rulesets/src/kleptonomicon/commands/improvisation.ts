// Improvised actions and Tests (004 "Improvising", "Tests"): a player asks,
// the GM rules that it simply happens, needs a Test, or cannot be done.
import { err, mintId, ok, own, type CommandHandler, type Json } from '@tablekeeper/engine';
import { kleptoTest } from '../roll.js';
import { K, numberSetting } from '../settings.js';
import { getKlepto } from '../state.js';
import { byCharacter, int, MAX_MODIFIER, needText, text } from '../context.js';
import type { KleptoEvent } from '../events.js';

export function improvisationCommands(): Record<string, CommandHandler> {
  return {
    'kleptonomicon.improvise': {
      label: 'try an improvised action',
      authorize: byCharacter(),
      decide(world, c, env) {
        const st = getKlepto(world);
        if (st.phase === 'between') return err('NO_EPISODE', 'no Episode is running');
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const d = needText(c, 'description');
        if (!d.ok) return d;
        if (Object.keys(st.improvised).length >= 200) return err('LIMIT_EXCEEDED', 'at most 200 improvised actions per Episode');
        const [id] = mintId(world, 'imp', env.rng);
        return ok([{ type: 'kleptonomicon.improvisationProposed', improvisationId: id, characterId: ch, description: d.value } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.rule': {
      label: 'rule on an improvised action',
      decide(world, c, env) {
        const st = getKlepto(world);
        const id = c['improvisationId'];
        const req = typeof id === 'string' ? own(st.improvised, id) : undefined;
        if (req === undefined) return err('NOT_FOUND', `no improvised action ${JSON.stringify(id)}`, 'improvisationId');
        if (req.status !== 'pending') return err('ALREADY_RULED', 'the GM already ruled on this');
        const ruling = c['ruling'];
        if (ruling !== 'simple' && ruling !== 'test' && ruling !== 'impossible') return err('INVALID_VALUE', 'ruling must be "simple", "test" or "impossible"', 'ruling');
        if (ruling !== 'test') return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: null } satisfies KleptoEvent]);
        const m = int(c, 'modifier', 0, -MAX_MODIFIER, MAX_MODIFIER);
        if (!m.ok) return m;
        const a = int(c, 'advantage', 0, -10, 10);
        if (!a.ok) return a;
        const roll = kleptoTest(env.rng, { modifier: m.value, advantage: a.value });
        // Every Test fails at the table's fail Score (6 or lower by default), this one too.
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: roll as unknown as Json, passed: roll.score > failAt } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.test': {
      label: 'roll a Test',
      authorize: byCharacter(),
      decide(world, c, env) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const skill = text(c, 'skill', false);
        if (!skill.ok) return skill;
        const m = int(c, 'modifier', 0, -MAX_MODIFIER, MAX_MODIFIER);
        if (!m.ok) return m;
        const a = int(c, 'advantage', 0, -10, 10);
        if (!a.ok) return a;
        const roll = kleptoTest(env.rng, { modifier: m.value, advantage: a.value });
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.tested', characterId: ch, skill: skill.value, roll: roll as unknown as Json, passed: roll.score > failAt } satisfies KleptoEvent]);
      },
    },
  };
}
