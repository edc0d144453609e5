// The phone's Daggerheart part: the player's own Hope and slots (marking
// their own Stress and Armor), the GM's Fear when the table shows it, each
// roll the GM asked of them with its exact odds before rolling, Help an Ally
// on a friend's roll, and the last roll with the Hope and Fear dice named and
// coloured. Everything comes from this player's projection.
import { useEffect, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import type { RollRequest } from '@tablekeeper/rulesets/browser';
import { helpAdds, helpersOf, lastRoll, oddsLines, openRequests, requestWords, tracksOfCharacter, waitingHits, type RollOdds } from '../../lib/daggerheart.ts';
import type { QueryAnswer } from '../../net/codec.ts';
import type { TransactionView } from '../../net/view.ts';
import type { Send } from '../types.ts';
import { CharacterTracks, DualityDice, FearTracker } from './Trackers.tsx';
import { HitChoice } from './HitChoice.tsx';

type Ask = (name: string, args: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

export function DaggerheartPhone({ world, history, characterIds, send, ask }: { world: World; history: readonly TransactionView[]; characterIds: readonly string[]; send: Send; ask: Ask | undefined }) {
  const mine = characterIds.map((id) => world.characters[id]).filter((c) => c !== undefined && c.kind === 'pc');
  const requests = openRequests(world, characterIds);
  const others = openRequests(world).filter((r) => !characterIds.includes(r.characterId));
  const roll = lastRoll(history);
  return (
    <div data-testid="daggerheart-phone">
      {waitingHits(world, characterIds).map((h) => (
        <HitChoice key={h.id} world={world} hit={h} send={send} ask={ask} />
      ))}
      {requests.map((r) => (
        <RequestCard key={r.id} world={world} request={r} send={send} ask={ask} />
      ))}
      {roll ? (
        <section class="panel" aria-labelledby="dh-roll-title">
          <h2 id="dh-roll-title">Last roll</h2>
          <DualityDice roll={roll} who={roll.characterId ? (world.characters[roll.characterId]?.name ?? 'Someone') : 'The GM'} />
        </section>
      ) : null}
      {mine.map((c) => (
        <section key={c!.id} class="panel" aria-label={`${c!.name}'s trackers`}>
          <h2>{c!.name}</h2>
          <CharacterTracks t={tracksOfCharacter(world, c!)} send={send} markable={['stress', 'armor']} clearable={false} />
        </section>
      ))}
      {others.length > 0 && mine.length > 0 ? (
        <section class="panel" aria-labelledby="dh-help-title">
          <h2 id="dh-help-title">Help an Ally</h2>
          {others.map((r) => {
            const helped = helpersOf(world, r.characterId);
            return mine.map((c) => (
              <div key={`${r.id}-${c!.id}`} class="row small">
                <span>
                  {world.characters[r.characterId]?.name}: {requestWords(r)}
                  {r.advantage > 0 || helped.length > 0 ? <span class="small muted" data-testid="help-adds"> · {helpAdds(world)}</span> : null}
                </span>
                <button class="small" disabled={helped.includes(c!.id)} onClick={() => void send({ type: 'daggerheart.helpAlly', helperId: c!.id, targetId: r.characterId })}>
                  {helped.includes(c!.id) ? `${c!.name} is helping` : `Help as ${c!.name} (Hope)`}
                </button>
              </div>
            ));
          })}
        </section>
      ) : null}
      <FearTracker world={world} gm={false} send={send} />
    </div>
  );
}

function RequestCard({ world, request, send, ask }: { world: World; request: RollRequest; send: Send; ask: Ask | undefined }) {
  const [useExperience, setUseExperience] = useState(false);
  const [odds, setOdds] = useState<RollOdds | null>(null);
  const helpers = helpersOf(world, request.characterId).join(',');
  const name = world.characters[request.characterId]?.name ?? '';
  // Ask again whenever the choices or the help offered change; the server answers on this player's own view.
  useEffect(() => {
    let live = true;
    if (!ask) return;
    void ask('daggerheart.rollOdds', { requestId: request.id, useExperience }).then((a) => {
      if (live) setOdds(a.ok ? (a.result as unknown as RollOdds) : null);
    });
    return () => {
      live = false;
    };
  }, [request.id, useExperience, helpers, request.awaiting === true]);
  const waiting = request.awaiting === true;
  return (
    <section class="panel dh-request" aria-labelledby={`dh-rq-${request.id}`} data-testid="roll-request">
      <h2 id={`dh-rq-${request.id}`}>{waiting ? `${name} asks to roll` : `The GM asks ${name} for a roll`}</h2>
      <p data-testid="request-words">{requestWords(request)}</p>
      {request.experience ? (
        <label class="small">
          <input type="checkbox" checked={useExperience} onChange={(e) => setUseExperience(e.currentTarget.checked)} /> Use {request.experience.name} (+{request.experience.bonus}, costs Hope)
        </label>
      ) : null}
      {helpers !== '' ? <p class="small">Helped: advantage{request.advantage > 0 || helpers.includes(',') ? ' (each d6 is thrown, the highest counts)' : ''}</p> : null}
      {odds ? (
        <ul class="dh-odds" aria-label="Odds before rolling" data-testid="roll-odds">
          {oddsLines(odds).map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : (
        <p class="small muted">Working out the odds…</p>
      )}
      {waiting ? <p class="small muted">Waiting for the GM to set the difficulty.</p> : null}
      <button class="primary" disabled={waiting} onClick={() => void send({ type: 'daggerheart.rollRequest', requestId: request.id, ...(useExperience ? { useExperience: true } : {}) })}>
        Roll Hope and Fear
      </button>
    </section>
  );
}
