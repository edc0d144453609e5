// Improvised actions and Tests (004 "Improvising", "Tests"): a player asks,
// the GM rules that it simply happens, needs a Test, or cannot be done.
import { asJson } from '@tablekeeper/engine/events';
import { controls, err, handlerOf, mintId, ok, own, type CommandHandler, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { kleptoTest } from '../roll.js';
import { K, numberSetting } from '../settings.js';
import { getKlepto } from '../state.js';
import { FORBIDDEN, MAX_TEXT } from '../context.js';
import { improviseDeclaration, ruleDeclaration, testDeclaration } from '../declarations.js';
import type { KleptoEvent } from '../events.js';

/** Blank text says nothing (the schema bounds its length). */
const blank = (v: string, key: string) => (v.trim() === '' ? err('INVALID_VALUE', `${key} must be a non-empty string of at most ${MAX_TEXT} characters`, key) : null);
/** The GM, or the player of that character (judged on the parsed payload). */
const mayAct = (world: World, actor: Viewer, characterId: string): RuleError | null => (controls(world, actor, characterId) ? null : FORBIDDEN);

export function improvisationCommands(): Record<string, CommandHandler> {
  return {
    'kleptonomicon.improvise': handlerOf(improviseDeclaration, {
      label: 'try an improvised action',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId, description }, env) {
        const st = getKlepto(world);
        if (st.phase === 'between') return err('NO_EPISODE', 'no Episode is running');
        if (own(world.characters, characterId) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(characterId)}`, 'characterId');
        const bad = blank(description, 'description');
        if (bad !== null) return bad;
        if (Object.keys(st.improvised).length >= 200) return err('LIMIT_EXCEEDED', 'at most 200 improvised actions per Episode');
        const [id] = mintId(world, 'imp', env.rng);
        return ok([{ type: 'kleptonomicon.improvisationProposed', improvisationId: id, characterId, description } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.rule': handlerOf(ruleDeclaration, {
      label: 'rule on an improvised action',
      decide(world, { improvisationId, ruling, modifier = 0, advantage = 0 }, env) {
        const st = getKlepto(world);
        const req = own(st.improvised, improvisationId);
        if (req === undefined) return err('NOT_FOUND', `no improvised action ${JSON.stringify(improvisationId)}`, 'improvisationId');
        if (req.status !== 'pending') return err('ALREADY_RULED', 'the GM already ruled on this');
        if (ruling !== 'test') return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: null } satisfies KleptoEvent]);
        const roll = kleptoTest(env.rng, { modifier, advantage });
        // Every Test fails at the table's fail Score (6 or lower by default), this one too.
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: asJson(roll), passed: roll.score > failAt } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.test': handlerOf(testDeclaration, {
      label: 'roll a Test',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId, skill, modifier = 0, advantage = 0 }, env) {
        if (own(world.characters, characterId) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(characterId)}`, 'characterId');
        const bad = skill === undefined ? null : blank(skill, 'skill');
        if (bad !== null) return bad;
        const roll = kleptoTest(env.rng, { modifier, advantage });
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.tested', characterId, skill: skill ?? null, roll: asJson(roll), passed: roll.score > failAt } satisfies KleptoEvent]);
      },
    }),
  };
}
