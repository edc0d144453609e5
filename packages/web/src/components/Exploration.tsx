// The OSR clock and exploration panel (GM screen): the hour as time dice,
// travel turns with the table's band, torches and lanterns on the clock, the
// travel calculator and rolling to return. Every roll is the server's: the
// panel sends the ruleset's commands and shows what comes back in the view.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import {
  APPROACHES,
  BAND_NAMES,
  CADENCES,
  DEFAULT_TRAVEL,
  LIGHT_LEVELS,
  PACES,
  TERRAINS,
  clampDays,
  formatDuration,
  formatMiles,
  hourShown,
  lastBatch,
  lightsOf,
  osrOf,
  returnDc,
  scenesPerHour,
  threatRow,
  travelCommand,
  travelPreview,
  type Approach,
  type Cadence,
  type LightLevel,
  type LightSourceKind,
  type TravelInput,
} from '../lib/osr.ts';
import { percent, type Ask } from '../lib/attack.ts';
import { useShown } from './shown.ts';
import { Field, SelectField } from './Field.tsx';
import type { Send } from './types.ts';

export function ExplorationPanel({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  const hour = hourShown(world.clock.seconds);
  return (
    <section class="panel area-explore" aria-labelledby="explore-title" data-testid="exploration">
      <h2 id="explore-title">
        <span>Exploration</span>
        <span class="badge" data-testid="explore-hour">
          {hour.label} · {hour.quarter}
        </span>
      </h2>
      <TimeDice world={world} send={send} />
      <TravelTurns world={world} send={send} />
      <Lights world={world} send={send} />
      <TravelCalculator world={world} send={send} />
      <RollToReturn world={world} send={send} ask={ask} />
    </section>
  );
}

function Dice({ faces, label }: { faces: readonly number[]; label: string }) {
  return (
    <span class="time-dice" role="img" aria-label={label}>
      {faces.map((f, i) => (
        <span key={i} class="die" aria-hidden="true">
          {f}
        </span>
      ))}
    </span>
  );
}

function Result({ world, kind, testId, empty }: { world: World; kind: string; testId: string; empty: string }) {
  const lines = lastBatch(world, kind);
  return lines.length === 0 ? (
    <p class="small muted">{empty}</p>
  ) : (
    <ul class="list small result" data-testid={testId} aria-live="polite">
      {lines.map((e, i) => (
        <li key={`${e.tx}-${i}`}>{e.text}</li>
      ))}
    </ul>
  );
}

// ---------------------------------------------------------------- time dice

function TimeDice({ world, send }: { world: World; send: Send }) {
  const hour = hourShown(world.clock.seconds);
  const [dice, setDice] = useState(1);
  const [use, setUse] = useState<'show' | 'clock' | 'duration'>('show');
  const [from, setFrom] = useState(0);
  return (
    <div class="explore-part" role="group" aria-labelledby="ex-time-title">
      <h3 id="ex-time-title">Time</h3>
      <p class="row">
        <Dice faces={hour.dice} label={`Time dice ${hour.dice.join(' and ')}: ${hour.label}, ${hour.quarter}`} />
        <span>
          {hour.label}, {hour.quarter}
        </span>
      </p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send({ type: 'osr.rollTime', dice, use, from });
        }}
      >
        <Field id="ex-time-dice" label="Time dice">
          <select id="ex-time-dice" value={String(dice)} onChange={(e) => setDice(Number(e.currentTarget.value))}>
            {[1, 2, 3, 4].map((n) => (
              <option key={n} value={String(n)}>
                {n}d6
              </option>
            ))}
          </select>
        </Field>
        <Field id="ex-time-from" label="From hour">
          <input id="ex-time-from" type="number" min={0} max={23} value={from} onInput={(e) => setFrom(Math.max(0, Math.min(23, Math.floor(Number(e.currentTarget.value)) || 0)))} />
        </Field>
        <Field id="ex-time-use" label="Use">
          <select id="ex-time-use" value={use} onChange={(e) => setUse(e.currentTarget.value as typeof use)}>
            <option value="show">Just show the hour</option>
            <option value="clock">Move the clock to it</option>
            <option value="duration">Pass that many hours</option>
          </select>
        </Field>
        <button type="submit" class="small">
          Roll time dice
        </button>
      </form>
      <Result world={world} kind="osr.timeRolled" testId="time-result" empty="No time dice rolled yet." />
    </div>
  );
}

// ---------------------------------------------------------------- travel turns

function TravelTurns({ world, send }: { world: World; send: Send }) {
  const st = osrOf(world);
  const [approach, setApproach] = useState<Approach>('normal');
  const [cadence, setCadence] = useState<Cadence>(st.cadence);
  const row = threatRow(st.lastThreat);
  const last = lastBatch(world, 'osr.travelTurnRolled').at(-1);
  return (
    <div class="explore-part" role="group" aria-labelledby="ex-turn-title">
      <h3 id="ex-turn-title">Travel turns</h3>
      <p class="small" data-testid="turns-out">
        {st.turnsOut} travel turn{st.turnsOut === 1 ? '' : 's'} since safety · {st.scenes} of {scenesPerHour(world)} scenes toward the next hour
      </p>
      <div class="row">
        <SelectField id="ex-turn-approach" label="Approach" value={approach} options={APPROACHES} onChange={(v) => setApproach(v as Approach)} />
        <Field id="ex-turn-cadence" label="Where">
          <select id="ex-turn-cadence" value={cadence} onChange={(e) => setCadence(e.currentTarget.value as Cadence)}>
            {CADENCES.map((c) => (
              <option key={c} value={c}>
                {c === 'dungeon' ? 'dungeon (1 hour)' : c === 'sea' ? 'sea (1 week)' : `${c} (1 day)`}
              </option>
            ))}
          </select>
        </Field>
        <button class="small" onClick={() => void send({ type: 'osr.travelTurn', approach, cadence })}>
          Take a travel turn
        </button>
        <button class="small" onClick={() => void send({ type: 'osr.scene', approach })}>
          Count a scene
        </button>
      </div>
      {row && last ? (
        <div class="result" data-testid="travel-turn-result" aria-live="polite">
          <p>
            <span class={`badge ${row.band === 'terrible' ? 'bad' : row.band === 'nothing' ? 'ok' : 'warn'}`}>
              {BAND_NAMES[row.band]} ({row.range})
            </span>{' '}
            <span class="small">{last.text}</span>
          </p>
        </div>
      ) : (
        <p class="small muted">No travel turn yet.</p>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- light

function Lights({ world, send }: { world: World; send: Send }) {
  const st = osrOf(world);
  const lights = lightsOf(world);
  const [kind, setKind] = useState<LightSourceKind>('torch');
  const [owner, setOwner] = useState('');
  const pcs = Object.values(world.characters).filter((c) => c.kind === 'pc');
  return (
    <div class="explore-part" role="group" aria-labelledby="ex-light-title">
      <h3 id="ex-light-title">Light</h3>
      <div class="row">
        <SelectField id="ex-ambient" label="Scene light" value={st.ambient} options={LIGHT_LEVELS} onChange={(v) => void send({ type: 'osr.setLight', level: v as LightLevel })} />
      </div>
      {lights.length === 0 ? (
        <p class="small muted">No torches or lanterns.</p>
      ) : (
        <ul class="list" aria-label="Torches and lanterns" data-testid="lights">
          {lights.map((l) => (
            <li key={l.id} class="light-row" data-testid="light">
              <span class="grow">
                <strong>{l.label}</strong>
                {l.owner ? <span class="muted small"> · {l.owner}</span> : null}{' '}
                <span class={`badge ${l.burning ? 'ok' : ''}`}>{l.burning ? 'burning' : 'out'}</span>{' '}
                <span class="small" data-testid="light-left">
                  {formatDuration(l.remaining)} left
                </span>
                <span class="fuel" role="meter" aria-label={`${l.label}: fuel left`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(l.fraction * 100)}>
                  <span style={{ width: `${Math.round(l.fraction * 100)}%` }} />
                </span>
              </span>
              {l.burning ? (
                <button class="small" onClick={() => void send({ type: 'osr.douse', sourceId: l.id })}>
                  Put out<span class="sr-only"> {l.label}</span>
                </button>
              ) : (
                <button class="small" disabled={l.remaining <= 0} onClick={() => void send({ type: 'osr.relight', sourceId: l.id })}>
                  Relight<span class="sr-only"> {l.label}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send({ type: 'osr.lightSource', kind, ...(owner ? { characterId: owner } : {}) });
        }}
      >
        <Field id="ex-light-kind" label="Source">
          <select id="ex-light-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as LightSourceKind)}>
            <option value="torch">torch (1 hour)</option>
            <option value="lantern">lantern (3 hours)</option>
          </select>
        </Field>
        <Field id="ex-light-owner" label="Carried by">
          <select id="ex-light-owner" value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
            <option value="">nobody in particular</option>
            {pcs.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" class="small">
          Light it
        </button>
      </form>
    </div>
  );
}

// ---------------------------------------------------------------- travel calculator

function TravelCalculator({ world, send }: { world: World; send: Send }) {
  const [input, setInput] = useState<TravelInput>(DEFAULT_TRAVEL);
  const set = (patch: Partial<TravelInput>) => setInput((i) => ({ ...i, ...patch }));
  const p = travelPreview(world, input);
  const days = clampDays(input.days);
  return (
    <div class="explore-part" role="group" aria-labelledby="ex-travel-title">
      <h3 id="ex-travel-title">Travel</h3>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send(travelCommand(input));
        }}
      >
        <Field id="ex-travel-mode" label="Travel by">
          <select id="ex-travel-mode" value={input.mode} onChange={(e) => set({ mode: e.currentTarget.value as TravelInput['mode'] })}>
            <option value="overland">land</option>
            <option value="river">river or lake</option>
            <option value="sea">sea</option>
          </select>
        </Field>
        <Field id="ex-travel-days" label="Days">
          <input id="ex-travel-days" type="number" min={1} max={60} value={input.days} onInput={(e) => set({ days: clampDays(Number(e.currentTarget.value)) })} />
        </Field>
        {input.mode === 'overland' ? (
          <>
            <SelectField id="ex-travel-terrain" label="Terrain" value={input.terrain} options={TERRAINS} onChange={(v) => set({ terrain: v as TravelInput['terrain'] })} />
            <SelectField id="ex-travel-pace" label="Pace" value={input.pace} options={PACES} onChange={(v) => set({ pace: v as TravelInput['pace'] })} />
            <SelectField id="ex-travel-light" label="Light on the road" value={input.light} options={LIGHT_LEVELS} onChange={(v) => set({ light: v as LightLevel })} />
          </>
        ) : (
          <>
            {/* The water sets the vessel (001 "Overwater Travel"): a boat on a river or lake, a ship at sea. */}
            <p class="small muted" data-testid="travel-vessel">
              {input.mode === 'sea' ? 'By ship: 5 miles an hour, 100 a full day and night.' : 'By boat: 3 miles an hour, about 30 a day.'}
            </p>
            <Field id="ex-travel-current" label="Wind and current">
              <select id="ex-travel-current" value={input.current} onChange={(e) => set({ current: e.currentTarget.value as TravelInput['current'] })}>
                <option value="none">neither</option>
                <option value="favourable">with us</option>
                <option value="unfavourable">against us</option>
              </select>
            </Field>
          </>
        )}
        <SelectField id="ex-travel-approach" label="Approach" value={input.approach} options={APPROACHES} onChange={(v) => set({ approach: v as Approach })} />
        <p class="calc grow" data-testid="travel-preview" aria-live="polite">
          <strong>{formatMiles(p.perDay)} miles a day</strong> · {formatMiles(p.total)} in {days} day{days === 1 ? '' : 's'} · {p.travelTurns} travel turn{p.travelTurns === 1 ? '' : 's'}
          {p.terrainUsed && p.terrainUsed !== input.terrain ? <span class="muted small"> (the light makes it {p.terrainUsed})</span> : null}
          {p.slowest ? <span class="muted small"> · the party keeps to {p.slowest}</span> : null}
          {p.blocked ? (
            <span class="small" style={{ color: 'var(--warn)' }} data-testid="travel-blocked">
              {' '}
              · cannot travel together: {p.blocked}
            </span>
          ) : null}
        </p>
        <button type="submit" class="small" disabled={p.blocked !== null}>
          Travel {days} day{days === 1 ? '' : 's'}
        </button>
      </form>
      {p.members.length > 1 ? (
        <ul class="chips small" aria-label="Miles a day by traveller">
          {p.members.map((m) => (
            <li key={m.id} class="badge">
              {m.name}: {formatMiles(m.miles)} ({m.why.join(', ')})
            </li>
          ))}
        </ul>
      ) : null}
      <Result world={world} kind="osr.traveled" testId="travel-result" empty="No journey yet." />
    </div>
  );
}

// ---------------------------------------------------------------- roll to return

type ReturnOdds = { readonly difficulty: number; readonly pcs: readonly { readonly characterId: string; readonly name: string; readonly modifier: number; readonly pass: number }[] };

function RollToReturn({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  const st = osrOf(world);
  const [path, setPath] = useState<'dangerous' | 'arduous'>('dangerous');
  // 001 lets the GM pick what is dropped; coins are load too (ADR 105), so the purse goes after the gear or first (ADR 111).
  const [purse, setPurse] = useState<'last' | 'first'>('last');
  // Each PC's exact chance from the engine before anyone rolls (review 11 #15: the button gave no odds).
  const [odds, setOdds] = useState<ReturnOdds | string | null>(null);
  // Asked only while shown, and shown as the GM left it on this device (ADR 86).
  const [shown, setShown] = useShown('return-chances');
  useEffect(() => {
    if (!shown) return;
    let live = true;
    void ask('osr.returnChances', {}).then((a) => {
      if (live) setOdds(a.ok ? (a.result as unknown as ReturnOdds) : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [world, shown]);
  return (
    <div class="explore-part" role="group" aria-labelledby="ex-return-title">
      <h3 id="ex-return-title">Roll to return</h3>
      <p class="small" data-testid="return-dc">
        DC {returnDc(st.turnsOut)} ({st.turnsOut} travel turn{st.turnsOut === 1 ? '' : 's'} out; at most 20)
      </p>
      <details class="small" data-testid="return-chances" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
        <summary>Each PC's chance to make it back</summary>
        {odds === null ? null : typeof odds === 'string' ? (
          <p class="small muted">No odds: {odds}</p>
        ) : (
          <ul class="small" data-testid="return-odds" aria-label="Chance to make it back">
            {odds.pcs.length === 0 ? <li>No PC left to roll.</li> : null}
            {odds.pcs.map((c) => (
              <li key={c.characterId}>
                {c.name} ({c.modifier >= 0 ? '+' : ''}
                {c.modifier} vs DC {odds.difficulty}): {percent(c.pass)} to make it back; a miss costs {path === 'dangerous' ? '1d6 HP' : '1 load'} per point short
              </li>
            ))}
          </ul>
        )}
      </details>
      <div class="row">
        <Field id="ex-return-path" label="The way back is">
          <select id="ex-return-path" value={path} onChange={(e) => setPath(e.currentTarget.value as typeof path)}>
            <option value="dangerous">dangerous (lose HP)</option>
            <option value="arduous">arduous (drop loads)</option>
          </select>
        </Field>
        {path === 'arduous' ? (
          <Field id="ex-return-purse" label="Coins on a failure">
            <select id="ex-return-purse" value={purse} onChange={(e) => setPurse(e.currentTarget.value as typeof purse)} title="The purse pays 500 coins a load, copper first">
              <option value="last">after the gear</option>
              <option value="first">the purse first</option>
            </select>
          </Field>
        ) : null}
        <button class="small" onClick={() => void send({ type: 'osr.rollToReturn', path, ...(path === 'arduous' && purse === 'first' ? { purse } : {}) })}>
          Roll to return
        </button>
        <button class="small" onClick={() => void send({ type: 'osr.reachSafety' })}>
          Safe without a roll
        </button>
      </div>
      <Result world={world} kind="osr.returnRolled" testId="return-result" empty="No one has rolled to return yet." />
    </div>
  );
}
