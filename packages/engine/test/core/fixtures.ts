// A tiny test module: dice rolled in decide (and recorded), a reaction that
// advances the clock on even rolls, a GM-only secret holding a canary string,
// and a deliberately looping reaction.
import { AUDIENCE_ALL, AUDIENCE_GM, appendLog, claimId, clockAdvanced, err, mintId, ok, stampLog } from '../../src/core/index.js';
import type { Engine, Json, Module, Table, World } from '../../src/core/index.js';

export const CANARY = 'CANARY-7f3a';

interface Dicey {
  readonly total: number;
  readonly echoes: number;
  readonly secrets: { readonly [id: string]: string };
}

const get = (w: World): Dicey => (w.ext['dicey'] as unknown as Dicey | undefined) ?? { total: 0, echoes: 0, secrets: {} };
const put = (w: World, d: Dicey): World => ({ ...w, ext: { ...w.ext, dicey: d as unknown as Json } });

export const diceyModule: Module = {
  id: 'dicey',
  commands: {
    'dicey.roll': {
      label: 'roll a die',
      authorize: () => null,
      decide(_w, c, env) {
        const sides = c['sides'];
        if (typeof sides !== 'number' || !Number.isSafeInteger(sides) || sides < 2 || sides > 100) return err('INVALID_VALUE', 'sides must be 2..100', 'sides');
        return ok([{ type: 'dicey.rolled', sides, value: env.rng.die(sides) }]);
      },
    },
    'secret.add': {
      label: 'add a secret',
      decide(w) {
        const [id] = mintId(w, 'sec');
        return ok([{ type: 'secret.added', id, text: `${CANARY} the butler did it` }]);
      },
    },
  },
  reducers: {
    'dicey.rolled': (w, e) => appendLog(put(w, { ...get(w), total: get(w).total + Number(e['value']) }), { audience: AUDIENCE_ALL, kind: 'dicey.rolled', text: `Rolled ${String(e['value'])}.` }),
    'dice.echoed': (w) => put(w, { ...get(w), echoes: get(w).echoes + 1 }),
    'secret.added': (w, e) => {
      const id = String(e['id']);
      const next = claimId(put(w, { ...get(w), secrets: { ...get(w).secrets, [id]: String(e['text']) } }), id);
      return appendLog(next, { audience: AUDIENCE_GM, kind: 'secret', text: `Secret: ${String(e['text'])}` });
    },
  },
  reactions: [
    (w, e) => (e.type === 'dicey.rolled' && Number(e['value']) % 2 === 0 ? [{ type: 'dice.echoed', value: Number(e['value']) }, clockAdvanced(w, 'actionRoll', 1, 6)] : []),
  ],
  project: (w, viewer) => (viewer.role === 'gm' ? w : put(w, { ...get(w), secrets: {} })),
  audience: { 'secret.added': () => AUDIENCE_GM },
};

/** A module whose reaction answers its own event forever. */
export const loopModule: Module = {
  id: 'loop',
  commands: { 'loop.start': { decide: () => ok([{ type: 'loop.pinged', n: 0 }]) } },
  reducers: { 'loop.pinged': (w) => w },
  reactions: [(_w, e) => (e.type === 'loop.pinged' ? [{ type: 'loop.pinged', n: Number(e['n']) + 1 }] : [])],
};

/**
 * The reference world of a table, as the engine once computed it on every undo: the genesis, then every live
 * command's events evolved outside a transaction (entries pending) and stamped with its seq.
 */
export function liveReplay(engine: Pick<Engine, 'evolve'>, t: Table): World {
  let w = t.genesis;
  for (const seq of t.live.toArray()) {
    const tx = t.transactions.bySeq(seq)!;
    if (tx.kind !== 'command') throw new Error(`live ${seq} is not a command`);
    for (const e of tx.events) w = engine.evolve(w, e);
    w = stampLog(w, seq);
  }
  return w;
}
