// The OSR GM's fight aids (issue 20, ADR 44), loaded on OSR GM screens only:
// the newest morale prompt of this fight with a button that runs the check for
// that side, its odds first (001 "When To Check Morale", "Morale Checks"); and
// at the fight's end its summary (001 "Death & Injury").
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import type { Send } from './types.ts';
import type { Ask } from '../lib/attack.ts';
import { noMoraleWords, osrOf, sideWords } from '../lib/osr.ts';
import { osrSettings } from '@tablekeeper/rulesets/browser';
import { sentenceOf } from '../lib/words.ts';
import { namesOf } from '../lib/encounter.ts';
import { readActions, type ActionsAnswer } from '../lib/actions.ts';
import { ActionFormView } from './Actions.tsx';
import { fateOf, fateWords, StabilizeFor } from './OsrStabilize.tsx';

/** Who checks morale for a side: its living, conscious characters in the fight (the NPCs roll once as a side). */
export function moraleRollers(world: World, enc: EncounterState, side: string): { ids: string[]; representative: string | null } {
  const st = osrOf(world);
  const ids: string[] = [];
  let npc: string | null = null;
  for (const x of enc.roster) {
    const c = enc.combatants[x];
    const ch = c?.characterId ?? null;
    if (c === undefined || ch === null || c.side !== side || st.dead.includes(ch) || Object.hasOwn(st.dying, ch) || ids.includes(ch)) continue;
    ids.push(ch);
    if (npc === null && c.kind !== 'pc') npc = ch;
  }
  return { ids, representative: npc ?? ids[0] ?? null };
}

/**
 * The GM's morale prompt (001 "When To Check Morale"): its button opens the morale form for the prompt's side
 * (side, group or one by one; advantage with its reason; the morale bonus and exact odds), never a roll at once
 * (review 7). When the party is losing, its hirelings and retainers are the ones ticked.
 */
export function OsrMoralePrompt({ world, enc, send, ask }: { world: World; enc: EncounterState; send: Send; ask: Ask | undefined }) {
  const prompt = osrOf(world).prompts.at(-1);
  const side = prompt?.side ?? 'npcs';
  const { ids } = moraleRollers(world, enc, side);
  const [open, setOpen] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const key = prompt === undefined ? null : `${osrOf(world).prompts.length}:${prompt.text}`;
  // The form is asked for once per opened prompt (a new `ask` each render must not unmount a form that has rolled).
  const asker = useRef(ask);
  asker.current = ask;
  useEffect(() => {
    setAnswer(null);
    const q = asker.current;
    if (open === null || open !== key || q === undefined || prompt === undefined) return;
    let live = true;
    void q('osr.moraleActions', { side, trigger: prompt.text.slice(0, 100) }).then((a) => {
      if (live) setAnswer(a.ok ? (readActions(a.result) ?? 'no answer') : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [open, key]);
  if (prompt === undefined) return null;
  const action = answer !== null && typeof answer !== 'string' ? answer.actions[0] : undefined;
  const party = enc.roster.some((x) => enc.combatants[x]?.side === side && enc.combatants[x]?.kind === 'pc');
  return (
    <div class="panel small" role="group" aria-label="Morale prompt" data-testid="morale-prompt">
      <p>
        <span class="badge warn">GM only</span> Morale? {prompt.text}
      </p>
      {ids.length > 0 ? (
        <div class="row">
          <button class="small" aria-expanded={open === key} onClick={() => setOpen(open === key ? null : key)}>
            Check morale for {sideWords(side)} ({party ? ids.filter((id) => world.characters[id]?.kind !== 'pc').length : ids.length})
          </button>
          <span class="muted">DC 11 on WIS{party ? "; the party's hirelings and retainers check (PCs rarely do)" : ''}</span>
        </div>
      ) : (
        <p class="muted">{noMoraleWords(enc, side)}</p>
      )}
      {open === key && typeof answer === 'string' ? <p class="error small">{answer}</p> : null}
      {open === key && action !== undefined && ask !== undefined ? <ActionFormView key={key ?? ''} action={action} world={world} send={send} ask={ask} /> : null}
    </div>
  );
}

/**
 * The seconds until the last of those left dying after the fight dies unless stabilized (001 "Death & Injury":
 * a minute, or the fight's end, whichever is later), or 0 when nobody is waiting on the clock.
 */
export function dyingSecondsLeft(world: World): number {
  const window = osrSettings(world).deathWindowSeconds;
  let most = 0;
  for (const d of Object.values(osrOf(world).dying)) if (!d.fight) most = Math.max(most, d.downAt + window - world.clock.seconds);
  return most;
}

/** Who the summary left dying, by character (the log line's data since ADR 55; none on older tables). */
export function leftDyingOf(data: unknown): { characterId: string; name: string }[] {
  const list = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as { dying?: unknown }).dying : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((x: unknown) => {
    const o = x !== null && typeof x === 'object' ? (x as { characterId?: unknown; name?: unknown }) : {};
    return typeof o.characterId === 'string' && typeof o.name === 'string' ? [{ characterId: o.characterId, name: o.name }] : [];
  });
}

/**
 * The newest fight's summary from the GM's log (the engine writes it when the encounter ends), and the minute after
 * it: each one left dying with what became of them since ("Kira died", "Kira is stable"), and while still dying,
 * a Stabilize form per ally able to help (001 "Stabilizing & Injuries"; review 7's dead end).
 */
export function OsrFightSummary({ world, send, ask }: { world: World; send?: Send; ask?: Ask }) {
  const line = world.log.findLast((l) => l.kind === 'osr.fightSummarized');
  const left = dyingSecondsLeft(world);
  const [msg, setMsg] = useState<string | null>(null);
  if (line === undefined) return null;
  const dying = leftDyingOf(line.data);
  const without = line.data !== null && typeof line.data === 'object' && !Array.isArray(line.data) ? line.data['without'] : undefined;
  return (
    <div class="small" data-testid="fight-summary-panel">
      <p role="status" data-testid="fight-summary">
        {typeof without === 'string' ? without : line.text}
      </p>
      {typeof without === 'string' && dying.length > 0 ? (
        <ul class="list" aria-label="Left dying at the fight's end">
          {dying.map((d) => {
            const fate = fateOf(world, d.characterId);
            return (
              <li key={d.characterId} data-testid="left-dying">
                <span role="status" data-testid="dying-fate">{fateWords(d.name, fate)}</span>
                {fate.kind === 'dying' && send !== undefined && ask !== undefined ? <StabilizeFor world={world} targetId={d.characterId} send={send} ask={ask} /> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {left > 0 && send !== undefined ? (
        // Nobody stabilizes them: the rest of the minute passes on the clock and the engine says who died.
        <button
          class="small"
          onClick={async () => {
            const r = await send({ type: 'clock.advance', unit: 'time', count: 0, seconds: left });
            setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
          }}
        >
          Let the minute run out ({left} s)
        </button>
      ) : null}
      {msg ? (
        <span class="error small" role="alert">
          {msg}
        </span>
      ) : null}
    </div>
  );
}
