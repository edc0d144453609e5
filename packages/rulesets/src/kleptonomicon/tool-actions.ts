// kleptonomicon.toolActions: the GM's forms for the Episode's own rules, which
// belong to no turn (issue 20: the engine knew them, no screen sent them).
// Without a characterId, the Episode's: the cold open (004 "Opening Credits"),
// Freeplay's loose turn order and its spotlight (004 "Freeplay"), a ruling on
// each improvised try still waiting (004 "Improvising"), and the GM's own
// Closing Credits scene. With one, that character's: Experience the GM awards
// or takes back (004 "Experience") and a resource set by name. Each is a
// TurnAction, so the web's one action form renders it, with odds before a Test.
import { asJson } from '@tablekeeper/engine/events';
import { err, ok, own, type Query, type World } from '@tablekeeper/engine';
import { action, forbid, type ActionOption, type TurnAction } from '../actions.js';
import { describePhase, MAX_TEXT, nameOf } from './context.js';
import { getKlepto, type ImprovisedRequest } from './state.js';

const yes = { allowed: true, reason: null };
/** An improvised try names itself in a button: a long one is cut short there (the log keeps it whole). */
const TRY_SHOWN = 60;
/** Resource names 004 and its sheets use; the GM may type any other. */
export const RESOURCE_SUGGESTIONS: readonly string[] = ['health', 'vitality', 'shield', 'dodges'];
const ADVANTAGE = { field: 'advantage', label: 'Advantage (− Disadvantage)', min: -10, max: 10, value: 0 } as const;
const MODIFIER = { field: 'modifier', label: 'Modifier', min: -50, max: 50, value: 0 } as const;

const shortTry = (text: string): string => (text.length <= TRY_SHOWN ? text : `${text.slice(0, TRY_SHOWN - 1).trimEnd()}…`);

/** The three rulings on one waiting try: it happens, it needs a Test (odds first), it cannot be done. */
function rulings(world: World, req: ImprovisedRequest): TurnAction[] {
  const what = `${nameOf(world, req.characterId)}'s try "${shortTry(req.description)}"`;
  const fixed = { improvisationId: req.id };
  return [
    action({ id: `rule:${req.id}:simple`, label: `${what}: it happens`, cost: 'no roll', command: 'kleptonomicon.rule', fixed: { ...fixed, ruling: 'simple' } }),
    action({
      id: `rule:${req.id}:test`,
      label: `${what}: needs a Test`,
      cost: 'a Test at the table fail Score',
      command: 'kleptonomicon.rule',
      fixed: { ...fixed, ruling: 'test' },
      numbers: [MODIFIER, ADVANTAGE],
      odds: { query: 'kleptonomicon.testOdds', args: {}, pass: ['modifier', 'advantage'] },
    }),
    action({ id: `rule:${req.id}:impossible`, label: `${what}: impossible`, cost: 'no roll', command: 'kleptonomicon.rule', fixed: { ...fixed, ruling: 'impossible' } }),
  ];
}

function episodeTools(world: World): TurnAction[] {
  const st = getKlepto(world);
  const now = describePhase(st);
  const opening = st.phase === 'opening' ? yes : forbid(`only in the Opening Credits, not ${now}`);
  const freeplay = st.phase === 'freeplay' ? yes : forbid(`only in Freeplay, not ${now}`);
  const closing = st.phase === 'closing' ? yes : forbid(`only in the Closing Credits, not ${now}`);
  const pcs: ActionOption[] = Object.values(world.characters)
    .filter((c) => c.kind === 'pc')
    .map((c) => ({ value: c.id, label: c.name, side: 'ally' as const }));
  const order = st.looseOrder ?? [];
  const spot = order.length === 0 ? null : order[st.spotlight % order.length]!;
  const next = order.length === 0 ? null : order[(st.spotlight + 1) % order.length]!;
  const out: TurnAction[] = [
    action({
      id: 'coldOpen',
      label: 'Cold open',
      cost: 'a scene after the introductions that sets up the stakes',
      command: 'kleptonomicon.coldOpen',
      fixed: {},
      texts: [{ field: 'text', label: 'The scene', value: '', max: MAX_TEXT }],
      ...opening,
    }),
    action({
      id: 'looseOrder',
      label: st.looseOrder === null ? 'Set a loose turn order' : 'Set a new loose turn order',
      cost: 'the first picked, then the others in the order ticked',
      command: 'kleptonomicon.looseOrder',
      fixed: {},
      // The PCs ticked in table order: the GM unticks or reorders by ticking again.
      target: { field: 'order', multiple: true, max: Math.max(1, pcs.length), label: 'First in the spotlight', aim: 'allies', options: pcs, picked: pcs.map((o) => o.value) },
      ...(pcs.length === 0 ? forbid('no Player Character at the table yet') : freeplay),
    }),
    action({
      id: 'passSpotlight',
      label: spot === null ? 'Pass the spotlight' : `Pass the spotlight from ${nameOf(world, spot)} to ${nameOf(world, next!)}`,
      cost: 'the next in the loose turn order',
      command: 'kleptonomicon.passSpotlight',
      fixed: {},
      ...(st.phase !== 'freeplay' ? freeplay : spot === null ? forbid('Freeplay has no loose turn order: set one first') : yes),
    }),
    action({
      id: 'dropLooseOrder',
      label: 'Drop the loose turn order',
      cost: 'Freeplay goes back to no order',
      command: 'kleptonomicon.looseOrder',
      fixed: { order: null },
      ...(st.phase !== 'freeplay' ? freeplay : st.looseOrder === null ? forbid('Freeplay has no loose turn order to drop') : yes),
    }),
  ];
  // Waiting tries in the order they were asked (the record keeps insertion order); ruled ones are done.
  for (const req of Object.values(st.improvised).filter((r) => r.status === 'pending')) out.push(...rulings(world, req));
  out.push(
    action({
      id: 'resolutionScene',
      label: "The GM's closing scene",
      cost: 'a scene or two that ties up the adventure',
      command: 'kleptonomicon.resolutionScene',
      fixed: {},
      texts: [{ field: 'text', label: 'The scene', value: '', max: MAX_TEXT }],
      ...closing,
    }),
  );
  return out;
}

function characterTools(world: World, id: string): TurnAction[] {
  const st = getKlepto(world);
  const ch = own(world.characters, id)!;
  const xp = st.xp[id] ?? 0;
  const held = Object.entries(st.resources[id] ?? {});
  const keys = [...new Set([...held.map(([k]) => k), ...RESOURCE_SUGGESTIONS])];
  return [
    action({
      id: 'awardXp',
      label: 'Award or take Experience',
      cost: `${ch.name} has ${xp} XP at level ${st.levels[id] ?? 1}`,
      command: 'kleptonomicon.awardXp',
      fixed: { characterId: id },
      // Taking back more than is held would go below 0, which the command refuses.
      numbers: [{ field: 'amount', label: 'Points (negative takes back)', min: xp > 0 ? -Math.min(100, xp) : 0, max: 100, value: 1 }],
      texts: [{ field: 'reason', label: 'Why', value: '', max: MAX_TEXT, suggestions: ['main goal', 'a clever plan'] }],
      ...(ch.kind === 'pc' ? yes : forbid(`${ch.name} is no Player Character: Experience is for the players' characters`)),
    }),
    action({
      id: 'setResource',
      label: 'Set a resource',
      cost: held.length === 0 ? 'none tracked yet' : `now ${held.map(([k, r]) => `${k} ${r.value}/${r.max}`).join(', ')}`,
      command: 'kleptonomicon.setResource',
      fixed: { characterId: id },
      texts: [{ field: 'key', label: 'Resource (one word)', value: keys[0]!, max: 32, suggestions: keys }],
      numbers: [
        { field: 'max', label: 'Maximum', min: 0, max: 100_000, value: held[0]?.[1].max ?? 10 },
        { field: 'value', label: 'Now', min: 0, max: 100_000, value: held[0]?.[1].value ?? 10 },
      ],
    }),
  ];
}

/** kleptonomicon.toolActions: with a characterId that character's tools, without one the Episode's (GM only by its declaration). */
export const kleptoToolActions: Query = (world, args) => {
  const id = args['characterId'];
  if (id === undefined) return ok(asJson({ combatantId: '', name: 'the Episode', onTurn: true, actions: episodeTools(world) }));
  if (typeof id !== 'string') return err('INVALID_VALUE', 'characterId must be a character id', 'characterId');
  const ch = own(world.characters, id);
  if (ch === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(id)}`, 'characterId');
  return ok(asJson({ combatantId: id, name: ch.name, onTurn: true, actions: characterTools(world, id) }));
};
