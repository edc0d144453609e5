// The Kleptonomicon outside an Encounter (004 "Freeplay", "Improvising"): a
// Test of a Skill with its exact odds before the roll, or an improvised try
// for the GM to rule on. The list and its odds come from the ruleset's
// kleptonomicon.freeplayActions query; the form is the turn actions' own.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { getKlepto } from '@tablekeeper/rulesets/browser';
import { readActions, type ActionsAnswer } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import { episodeOf, freeplayActorsOf, phaseLabel } from '../lib/episode.ts';
import { ActionFormView } from './Actions.tsx';
import type { Send } from './types.ts';

export function FreeplayActions({ world, gm, send, ask, mine = [] }: { world: World; gm: boolean; send: Send; ask: Ask; mine?: readonly string[] }) {
  const actors = freeplayActorsOf(world, gm ? null : mine);
  const [who, setWho] = useState<string>('');
  const [open, setOpen] = useState<string | null>(null);
  // As in the actions panel (ADR 52): once the open form has rolled, its button opens a fresh one.
  const [rolled, setRolled] = useState<string | null>(null);
  const [fresh, setFresh] = useState(0);
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const actor = actors.some((a) => a.id === who) ? who : (actors[0]?.id ?? '');
  const phase = phaseLabel(episodeOf(world));
  useEffect(() => {
    if (actor === '') return setAnswer(null);
    let live = true;
    void ask('kleptonomicon.freeplayActions', { characterId: actor }).then((a) => {
      if (live) setAnswer(a.ok ? readActions(a.result) : a.error.message);
    });
    return () => {
      live = false;
    };
    // The Episode's state too: an introduction relabels "Introduce Alice" at once (review 13), not at the next phase.
  }, [actor, phase, world.characters[actor], getKlepto(world)]);
  if (actors.length === 0 || answer === null) return null;
  const current = typeof answer === 'string' ? null : (answer.actions.find((a) => a.id === open) ?? null);
  return (
    <section class="actions freeplay" aria-labelledby="freeplay-title" data-testid="freeplay-actions">
      <h3 id="freeplay-title">Outside a fight</h3>
      <div class="row">
        {gm && actors.length > 1 ? (
          <>
            <label for="freeplay-who">Who</label>
            <select id="freeplay-who" value={actor} onChange={(e) => setWho(e.currentTarget.value)}>
              {actors.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span>{actors.find((a) => a.id === actor)?.name}:</span>
        )}
        {typeof answer === 'string' ? (
          <span class="small muted">No actions: {answer}</span>
        ) : (
          <span role="group" aria-label={`What ${answer.name} can do outside a fight`}>
            {answer.actions
              .filter((a) => a.allowed)
              .map((a) => (
                <button key={a.id} class="small" aria-pressed={open === a.id} onClick={() => {
                    setRolled(null);
                    if (open === a.id && rolled === a.id) setFresh(fresh + 1);
                    else setOpen(open === a.id ? null : a.id);
                  }}>
                  {a.label}
                </button>
              ))}
          </span>
        )}
      </div>
      {typeof answer !== 'string'
        ? answer.actions
            .filter((a) => !a.allowed)
            .map((a) => (
              <p key={a.id} class="small muted">
                {a.label}: {a.reason}
              </p>
            ))
        : null}
      {current !== null && typeof answer !== 'string' ? <ActionFormView key={`${answer.combatantId}:${current.id}:${fresh}`} action={current} world={world} send={send} ask={ask} onRolled={() => setRolled(current.id)} /> : null}
    </section>
  );
}
