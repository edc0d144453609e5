// The player view (phone first) and the spectator display: the same screen
// with less in it. Everything shown comes from this viewer's projection.
import { useEffect, useState } from 'preact/hooks';
import { yourTurn } from '../lib/turns.ts';
import type { Character, World } from '@tablekeeper/engine';
import { hasPanel } from '@tablekeeper/rulesets/browser';
import type { Capability } from '../net/client.ts';
import { useTable } from '../lib/use-table.ts';
import { conditionName, conditionsOn, durationLabel, encounterOf, namesOf, resourcesOf, tracksOf } from '../lib/encounter.ts';
import { sheetTrackOf } from '../lib/sheetTrack.ts';
import { EncounterPanel } from './Encounter.tsx';
import { CountdownsPanel } from './Countdowns.tsx';
import { LogPanel } from './Log.tsx';
import { ClockPanel } from './Clock.tsx';
import { AskGm, DaggerheartPhone, DiceTrayLater, EpisodeBar, OsrStabilizePhone, PhoneSheet, PlayerLights } from './LazyPanels.tsx';
import type { Ask } from '../lib/attack.ts';
import { RejectionToast, StatusDot } from './Chrome.tsx';
import { LinkProblem, useLinkProblem } from './LinkCheck.tsx';
import { useRemember } from './remember.ts';
import { linkProblem } from '../lib/recent.ts';
import type { Send } from './types.ts';

export function PlayerView({ capability }: { capability: Capability }) {
  const client = useTable(capability);
  const view = client.view.value;
  const seatId = client.viewer.value?.role === 'player' ? client.viewer.value.seatId : null;
  const send: Send = (c) => client.send(c);
  const player = capability.role === 'player';
  const seat = seatId && view ? view.world.seats[seatId] : undefined;
  // This seat's characters (none for a spectator), read once for the panels that act for them.
  const chars = player && seatId && view ? seatCharacters(view.world, seatId) : [];
  const charIds = chars.map((c) => c.id);
  const mine = view ? myCombatants(view.world, charIds) : [];
  const problem = useLinkProblem(client);
  useRemember(view?.world, player ? 'player' : 'spectator', seat?.name);
  return (
    <>
      <header class="topbar">
        <span class="title">Tablekeeper</span>
        <span class="grow">
          {view ? <strong data-testid="table-name">{view.world.name}</strong> : null} {seat ? <span class="badge">{seat.name}</span> : null}
          {!player ? <span class="badge">Spectator</span> : null}
        </span>
        <StatusDot client={client} bad={problem !== null} />
      </header>
      <main class="player" id="main">
        {client.revoked.value !== null ? (
          // A seat removed while open: the message alone, not the fight as it was (review 13 #15: a frozen fight under it).
          <LinkProblem message={linkProblem(client.revoked.value)} />
        ) : !view ? (
          problem ? <LinkProblem message={problem} /> : <p role="status">{client.closeReason.value ?? 'Joining the table…'}</p>
        ) : (
          <>
            {hasPanel(view.world.rulesetId, 'episode') ? <EpisodeBar world={view.world} gm={false} send={send} {...(player && seatId ? { mine: charIds, ask: (name: string, args: Parameters<Ask>[1]) => client.query(name, args) } : {})} /> : null}
            {player && seatId ? <YourTurn world={view.world} mine={mine} /> : null}
            {player && seatId ? <MyCharacter world={view.world} seatId={seatId} chars={chars} send={send} ask={(name, args) => client.query(name, args)} /> : null}
            {hasPanel(view.world.rulesetId, 'daggerheart') ? <DaggerheartPhone world={view.world} history={view.history} characterIds={charIds} send={send} ask={player ? (name, args) => client.query(name, args) : undefined} /> : null}
            <EncounterPanel world={view.world} gm={false} send={send} mine={mine} characters={charIds} ask={player ? (name, args) => client.query(name, args) : undefined} askStatus={(name, args) => client.query(name, args)} />
            {player && seatId && hasPanel(view.world.rulesetId, 'lights') ? <OsrStabilizePhone world={view.world} send={send} ask={(name, args) => client.query(name, args)} characterIds={charIds} /> : null}
            <CountdownsPanel world={view.world} history={view.history} gm={false} send={send} class="" />
            <ClockPanel world={view.world} gm={false} send={send} />
            {hasPanel(view.world.rulesetId, 'lights') ? <PlayerLights world={view.world} send={send} characters={chars} ask={player ? (name, args) => client.query(name, args) : undefined} /> : null}
            {player ? <DiceTrayLater title="Roll" send={send} world={view.world} /> : null}
            <LogPanel world={view.world} limit={50} class="" />
          </>
        )}
      </main>
      <RejectionToast client={client} names={view ? namesOf(view.world) : {}} />
    </>
  );
}

/** "Your turn" banner, and a short vibration where the phone allows it, when one of the player's own combatants starts a turn. */
function YourTurn({ world, mine }: { world: World; mine: readonly string[] }) {
  const enc = encounterOf(world);
  const who = yourTurn(enc, mine);
  const serial = enc?.turnSerial ?? 0;
  useEffect(() => {
    // Browsers refuse (and log a warning) until the person has tapped the page: ask only after that.
    if (who === null || navigator.userActivation?.hasBeenActive === false) return;
    try {
      navigator.vibrate?.(200);
    } catch {
      // vibration is a nicety; some browsers refuse it without a tap first
    }
  }, [who, serial]);
  if (who === null) return null;
  return (
    // Not a status region: the tracker's turn announcer already says "Your turn: Kira" once (review 13 #14).
    <p class="your-turn" data-testid="your-turn">
      Your turn: <strong>{who}</strong>
    </p>
  );
}

function seatCharacters(world: World, seatId: string): Character[] {
  const seat = world.seats[seatId];
  const ids = new Set(seat?.characterIds ?? []);
  return Object.values(world.characters).filter((c) => c.seatId === seatId || ids.has(c.id));
}

/** The running fight's combatants that play these characters; none between fights (a choice raised then waits on a character, ADR 117). */
function myCombatants(world: World, characterIds: readonly string[]): string[] {
  const enc = encounterOf(world);
  return enc?.active ? enc.roster.filter((id) => characterIds.includes(enc.combatants[id]?.characterId ?? '')) : [];
}

function MyCharacter({ world, seatId, chars, send, ask }: { world: World; seatId: string; chars: readonly Character[]; send: Send; ask: Ask }) {
  const [editing, setEditing] = useState(false);
  const key = `tk.character.${world.tableId}.${seatId}`;
  const [picked, setPicked] = useState<string | null>(() => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  });
  const ch = chars.find((c) => c.id === picked) ?? chars[0];
  const enc = encounterOf(world);
  const combatant = enc && ch ? Object.values(enc.combatants).find((c) => c.characterId === ch.id) : undefined;
  const conds = enc && combatant ? conditionsOn(enc, combatant.id) : [];
  const names = namesOf(world);
  // HP the rules keep on a sheet (36th Way, teams) win, as on the tracker; the sheet's stamina and focus come along.
  const stats = ch ? { ...ch.stats, ...(combatant?.stats ?? {}), ...sheetTrackOf(world, { id: combatant?.id ?? ch.id, characterId: ch.id }) } : {};
  const resources = resourcesOf(stats);
  return (
    <section class="panel" aria-labelledby="me-title">
      <h2 id="me-title">Your character</h2>
      {chars.length === 0 ? <p class="muted">Your GM has not given this seat a character yet.</p> : null}
      {chars.length > 1 ? (
        <div class="field">
          <label for="pick-char">Playing as</label>
          <select
            id="pick-char"
            value={ch?.id}
            onChange={(e) => {
              setPicked(e.currentTarget.value);
              try {
                localStorage.setItem(key, e.currentTarget.value);
              } catch {
                // storage disabled: the pick lasts for this page
              }
            }}
          >
            {chars.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {ch ? (
        <div data-testid="my-character">
          <strong>{ch.name}</strong>
          {tracksOf(stats, world.rulesetId).map((t) => (
            <div key={t.label} class="small">
              {t.label} {t.value}/{t.max} {t.states.map((s) => <span key={s} class="badge warn">{s}</span>)}
              <div class={`hpbar ${t.states.join(' ')}`} role="meter" aria-label={`${ch.name} ${t.label}`} aria-valuemin={0} aria-valuemax={t.max} aria-valuenow={t.value}>
                <span style={{ width: `${Math.max(0, Math.min(100, (100 * t.value) / t.max))}%` }} />
              </div>
              {t.note !== undefined ? <div class="muted" data-testid="my-life-note">{t.note}</div> : null}
            </div>
          ))}
          {resources.length > 0 ? (
            <p class="small" data-testid="my-resources">
              {resources.map((r) => `${r.label} ${r.value}/${r.max}`).join(' · ')}
            </p>
          ) : null}
          {conds.length > 0 ? (
            <ul class="chips list" aria-label="Your conditions" style={{ display: 'flex' }}>
              {conds.map((x) => (
                <li key={x.id} class="badge warn">
                  {enc ? conditionName(enc, x.defId) : x.defId}
                  {x.stacks > 1 ? ` ×${x.stacks}` : ''} {durationLabel(x.duration, names)}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {ch ? (
        <details class="my-sheet" onToggle={(e) => setEditing(e.currentTarget.open)}>
          <summary>My sheet</summary>
          {editing ? <PhoneSheet world={world} characterId={ch.id} send={send} ask={ask} /> : null}
        </details>
      ) : null}
      {ch ? <AskGm world={world} characterId={ch.id} send={send} /> : null}
    </section>
  );
}
