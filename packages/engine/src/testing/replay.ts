// A replayed table must be the table played live: the same world, and the same
// worlds down its undo stack and back up its redo stack. A replay appends to
// its own log in place (ADR 96), so a kept world whose log it changed after
// keeping it would show here as an undo that lands on another world.
import type { Engine, Table, Viewer } from '../core/types.js';
import { seededRng } from '../dice/rng.js';
import { sameJsonValue } from './secrecy.js';

const GM: Viewer = { role: 'gm' };
const short = (v: unknown): string => JSON.stringify(v)?.slice(0, 300) ?? 'undefined';

/** What differs between `live` and its replay, after the replay and after each undo to the bottom and each redo back; [] when nothing. */
export function replayProblems(engine: Engine, live: Table): string[] {
  const problems: string[] = [];
  let replayed = engine.replay(live.genesis, live.transactions);
  let played = live;
  const compare = (when: string): void => {
    if (!sameJsonValue(replayed.world, played.world)) problems.push(`${when}: the replayed world ${short(replayed.world)} is not the live one ${short(played.world)}`);
    if (!sameJsonValue(replayed.live.toArray(), played.live.toArray())) problems.push(`${when}: the replayed undo stack differs`);
  };
  compare('after the replay');
  for (const kind of ['undo', 'redo'] as const) {
    for (let step = 1; problems.length === 0; step++) {
      const a = engine.execute(played, { type: `history.${kind}` }, { rng: seededRng(0), actor: GM });
      const b = engine.execute(replayed, { type: `history.${kind}` }, { rng: seededRng(0), actor: GM });
      if (a.ok !== b.ok) problems.push(`${kind} ${step}: the live table ${a.ok ? 'could' : 'could not'}, the replayed one ${b.ok ? 'could' : 'could not'}`);
      if (!a.ok || !b.ok) break;
      played = a.value.table;
      replayed = b.value.table;
      compare(`${kind} ${step}`);
    }
  }
  return problems;
}
