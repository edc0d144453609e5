// OSR light on a player's phone: the scene's light level, the torches and
// lanterns this player may see with the fuel left, and lighting one carried by
// their own character (the ruleset lets a player do that; putting out and
// relighting stay with the GM). Below it, the checks a player makes while exploring (Hide, Listen, Search,
// Track: issue 20), from this chunk so the phone's first download does not grow.
import { useState } from 'preact/hooks';
import type { Character, World } from '@tablekeeper/engine';
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';
import type { Ask } from '../lib/attack.ts';
import { SkillChecks } from './SkillChecks.tsx';
import { formatDuration, lightsOf, osrOf, type LightSourceKind } from '../lib/osr.ts';
import { Field } from './Field.tsx';
import type { Send } from './types.ts';

export function PlayerLights({ world, send, characters, ask }: { world: World; send: Send; characters: readonly Character[]; ask?: Ask | undefined }) {
  const lights = lightsOf(world);
  const [owner, setOwner] = useState('');
  const who = characters.find((c) => c.id === owner) ?? characters[0];
  const light = (kind: LightSourceKind) => {
    if (who) void send({ type: 'osr.lightSource', kind, characterId: who.id });
  };
  const checks = capabilitiesOf(world.rulesetId).checksQuery;
  return (
    <>
    <section class="panel" aria-labelledby="pl-light-title" data-testid="player-lights">
      <h2 id="pl-light-title">
        <span>Light</span>
        <span class="badge">{osrOf(world).ambient}</span>
      </h2>
      {lights.length === 0 ? (
        <p class="small muted">No torches or lanterns.</p>
      ) : (
        <ul class="list" aria-label="Torches and lanterns">
          {lights.map((l) => (
            <li key={l.id} data-testid="player-light">
              <strong>{l.label}</strong>
              {l.owner ? <span class="muted small"> · {l.owner}</span> : null} <span class={`badge ${l.burning ? 'ok' : ''}`}>{l.burning ? 'burning' : 'out'}</span>{' '}
              <span class="small">{formatDuration(l.remaining)} left</span>
              <span class="fuel" role="meter" aria-label={`${l.label}: fuel left`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(l.fraction * 100)}>
                <span style={{ width: `${Math.round(l.fraction * 100)}%` }} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {who ? (
        <div class="row">
          {characters.length > 1 ? (
            <Field id="pl-light-owner" label="Carried by">
              <select id="pl-light-owner" value={who.id} onChange={(e) => setOwner(e.currentTarget.value)}>
                {characters.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <button onClick={() => light('torch')}>Light a torch</button>
          <button onClick={() => light('lantern')}>Light a lantern</button>
        </div>
      ) : null}
    </section>
    {ask !== undefined && checks !== undefined && characters.length > 0 ? <SkillChecks world={world} send={send} ask={ask} query={checks} /> : null}
    </>
  );
}
