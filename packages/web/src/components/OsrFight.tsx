// The OSR GM's fight aids (issue 20, ADR 44), loaded on OSR GM screens only:
// the newest morale prompt of this fight with a button that runs the check for
// that side, its odds first (001 "When To Check Morale", "Morale Checks"); and
// at the fight's end its summary (001 "Death & Injury").
import { useEffect, useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import type { Send } from './types.ts';
import type { Ask } from '../lib/attack.ts';
import { percent } from '../lib/attack.ts';
import { osrOf } from '../lib/osr.ts';
import { osrSettings } from '@tablekeeper/rulesets/browser';
import { sentenceOf } from '../lib/words.ts';
import { namesOf } from '../lib/encounter.ts';
import { fateOf, fateWords, StabilizeFor } from './OsrStabilize.tsx';

/** A side in the GM's words, as the engine's prompts write it. */
export function sideWords(side: string): string {
  if (side === 'pcs' || side === 'party') return 'the party';
  if (side === 'npcs' || side === 'foes') return 'the foes';
  return side;
}

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

export function OsrMoralePrompt({ world, enc, send, ask }: { world: World; enc: EncounterState; send: Send; ask: Ask | undefined }) {
  const prompt = osrOf(world).prompts.at(-1);
  const side = prompt?.side ?? 'npcs';
  const { ids, representative } = moraleRollers(world, enc, side);
  const [odds, setOdds] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const rep = representative === null ? undefined : world.characters[representative];
  const bonus = typeof rep?.stats['moraleBonus'] === 'number' ? rep.stats['moraleBonus'] : 0;
  const key = `${representative ?? ''}:${bonus}`;
  useEffect(() => {
    setOdds(null);
    if (representative === null || ask === undefined) return;
    let live = true;
    // 001 "Morale Checks": d20 + WIS mod + the monster's morale bonus against DC 11, as osr.morale rolls it.
    void ask('osr.checkOdds', { characterId: representative, ability: 'wis', difficulty: 11, bonus }).then((a) => {
      if (!live) return;
      const pass = a.ok && a.result !== null && typeof a.result === 'object' && !Array.isArray(a.result) ? a.result['pass'] : null;
      setOdds(typeof pass === 'number' ? `${percent(pass)} they stand and fight` : null);
    });
    return () => {
      live = false;
    };
  }, [key, ask]);
  if (prompt === undefined) return null;
  return (
    <div class="panel small" role="group" aria-label="Morale prompt" data-testid="morale-prompt">
      <p>
        <span class="badge warn">GM only</span> Morale? {prompt.text}
      </p>
      {ids.length > 0 ? (
        <div class="row">
          <button
            class="small"
            onClick={async () => {
              const r = await send({ type: 'osr.morale', characterIds: ids, as: 'side', trigger: prompt.text.slice(0, 100) });
              setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
            }}
          >
            Check morale for {sideWords(side)} ({ids.length})
          </button>
          <span class="muted" data-testid="morale-odds">
            {odds ?? 'DC 11 on WIS'}
          </span>
          {msg ? (
            <span class="error small" role="alert">
              {msg}
            </span>
          ) : null}
        </div>
      ) : (
        <p class="muted">Nobody on {sideWords(side)} is left standing to check.</p>
      )}
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
