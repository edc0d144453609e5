// OSR: saving the dying outside a turn (001 "Death & Injury": dead unless
// stabilized within a minute or by the fight's end, whichever is later;
// "Stabilizing & Injuries": an ally's check, then the Injury Table). After a
// short fight the rest of the minute is the table's last chance (ADR 53, 55):
// the GM's summary offers a form per ally able to help each dying creature,
// and an ally's phone its own character's form, both with the check's odds.
// Loaded on OSR screens only.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { osrSettings, readSheet } from '@tablekeeper/rulesets/browser';
import { readActions, type ActionsAnswer } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import { encounterOf } from '../lib/encounter.ts';
import { osrOf } from '../lib/osr.ts';
import { ActionFormView } from './Actions.tsx';
import type { Send } from './types.ts';

export type Fate = { readonly kind: 'dying'; readonly secondsLeft: number } | { readonly kind: 'dead' } | { readonly kind: 'stable'; readonly hp: number };

/** What became of someone left dying: the seconds left while still dying, else dead or stable (with HP). */
export function fateOf(world: World, id: string): Fate {
  const st = osrOf(world);
  if (st.dead.includes(id)) return { kind: 'dead' };
  const d = st.dying[id];
  if (d !== undefined) return { kind: 'dying', secondsLeft: Math.max(0, d.downAt + osrSettings(world).deathWindowSeconds - world.clock.seconds) };
  return { kind: 'stable', hp: readSheet(world.characters[id]?.stats).hp };
}

/** "Kira died.", "Kira is stable (1 HP).", "Kira is dying: 48 s left to stabilize her." */
export function fateWords(name: string, fate: Fate): string {
  if (fate.kind === 'dead') return `${name} died.`;
  if (fate.kind === 'stable') return fate.hp > 0 ? `${name} is stable (${fate.hp} HP).` : `${name} is stable at 0 HP.`;
  return `${name} is dying: ${fate.secondsLeft} s left to stabilize.`;
}

/** The answer of osr.stabilizeActions for these arguments, asked again when the dying or the sheets change. */
function useStabilizeActions(world: World, ask: Ask, args: { characterId?: string; targetId?: string } | null): ActionsAnswer | string | null {
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const dying = Object.keys(osrOf(world).dying).join(',');
  const key = JSON.stringify(args);
  useEffect(() => {
    if (args === null) return setAnswer(null);
    let live = true;
    void ask('osr.stabilizeActions', args).then((a) => {
      if (live) setAnswer(a.ok ? (readActions(a.result) ?? 'no answer') : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [key, dying, world.characters]);
  return answer;
}

/** The GM's forms for one dying creature: a button per ally able to help ("Bram stabilizes Kira"), each opening the check with its odds. */
export function StabilizeFor({ world, targetId, send, ask }: { world: World; targetId: string; send: Send; ask: Ask }) {
  const answer = useStabilizeActions(world, ask, { targetId });
  const [open, setOpen] = useState<string | null>(null);
  if (answer === null) return null;
  if (typeof answer === 'string') return <span class="small muted">{answer}</span>;
  const current = answer.actions.find((a) => a.id === open) ?? null;
  return (
    <div class="stack">
      <span class="row" role="group" aria-label={`Who stabilizes ${answer.name}`}>
        {answer.actions.length === 0 ? <span class="small muted">No ally of {answer.name}'s is able to act: a spell or other means only.</span> : null}
        {answer.actions.map((a) => (
          <button key={a.id} type="button" class="small" aria-pressed={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
            {a.label}
          </button>
        ))}
      </span>
      {current !== null ? <ActionFormView key={current.id} action={current} world={world} send={send} ask={ask} /> : null}
    </div>
  );
}

/**
 * An ally's phone outside a fight: its character's Stabilize over the dying allies, with the odds, and what
 * became of each ally seen dying here ("Kira is stable (1 HP)"). In a fight the turn's actions hold Stabilize.
 */
export function OsrStabilizePhone({ world, send, ask, characterIds }: { world: World; send: Send; ask: Ask; characterIds: readonly string[] }) {
  const st = osrOf(world);
  const able = characterIds.filter((id) => !st.dead.includes(id) && st.dying[id] === undefined && readSheet(world.characters[id]?.stats).hp > 0);
  const [who, setWho] = useState('');
  const helper = able.includes(who) ? who : (able[0] ?? null);
  const fight = encounterOf(world)?.active === true;
  // Allies seen dying here: their fate stays on screen once they are stable or dead.
  const [followed, setFollowed] = useState<readonly string[]>([]);
  const anyDying = followed.length > 0 || Object.keys(st.dying).some((id) => !characterIds.includes(id));
  const answer = useStabilizeActions(world, ask, !fight && helper !== null && anyDying ? { characterId: helper } : null);
  const [open, setOpen] = useState(false);
  const [fresh, setFresh] = useState(0);
  const offered = answer !== null && typeof answer !== 'string' ? (answer.actions[0]?.target?.options ?? []).map((o) => o.value) : [];
  useEffect(() => {
    const more = offered.filter((id) => !followed.includes(id));
    if (more.length > 0) setFollowed([...followed, ...more]);
  }, [offered.join(',')]);
  if (fight || helper === null || followed.length === 0 || answer === null || typeof answer === 'string') return null;
  const action = answer.actions[0];
  const still = followed.some((id) => fateOf(world, id).kind === 'dying');
  return (
    <section class="panel" aria-labelledby="stabilize-title" data-testid="stabilize-panel">
      <h2 id="stabilize-title">Stabilize</h2>
      <ul class="list small" aria-label="Allies left dying">
        {followed.map((id) => (
          <li key={id} data-testid="ally-fate">
            {fateWords(world.characters[id]?.name ?? 'Someone', fateOf(world, id))}
          </li>
        ))}
      </ul>
      {able.length > 1 ? (
        <label class="small">
          Who helps{' '}
          <select value={helper} onChange={(e) => setWho(e.currentTarget.value)}>
            {able.map((id) => (
              <option key={id} value={id}>
                {world.characters[id]?.name ?? id}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {action !== undefined && still ? (
        <button type="button" class="small" aria-pressed={open} onClick={() => (open ? setFresh(fresh + 1) : setOpen(true))}>
          {answer.name}: Stabilize
        </button>
      ) : null}
      {action !== undefined && open ? (
        // Nobody left dying: the form turns into what became of them, closed by the player (review 8).
        <ActionFormView key={`${helper}:${fresh}`} action={action} world={world} send={send} ask={ask} done={still ? null : followed.map((id) => fateWords(world.characters[id]?.name ?? 'Someone', fateOf(world, id))).join(' ')} onClose={() => setOpen(false)} />
      ) : null}
    </section>
  );
}
