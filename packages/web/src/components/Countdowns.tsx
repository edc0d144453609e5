// The countdowns panel: every kind, visibility toggles, ticks by hand or by
// an action roll's outcome, and the exact odds beside chase and dynamic ones.
import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import type { Countdown, OutcomeSource, TransactionView, World } from '@tablekeeper/engine';
import type { CountdownWords } from '@tablekeeper/rulesets/browser';
import { countdownsOf, isRedacted, visibilityCommand, type CountdownShown } from '../lib/countdowns.ts';

type OddsLib = typeof import('../lib/countdown-odds.ts');
let oddsLib: OddsLib | null = null;
/** The odds code and the ruleset's countdown words, loaded once after the first render (null until then: no odds line, no GM controls yet). */
function useOddsLib(): OddsLib | null {
  const [lib, setLib] = useState<OddsLib | null>(oddsLib);
  useEffect(() => {
    if (lib !== null) return;
    let live = true;
    void import('../lib/countdown-odds.ts').then((m) => {
      oddsLib = m;
      if (live) setLib(m);
    });
    return () => {
      live = false;
    };
  }, [lib]);
  return lib;
}
import type { Send } from './types.ts';
import { CreateCountdown } from './LazyPanels.tsx';

/** `Tools`: the GM screen's buttons on each row (tick, pause, untick, set, remove), kept out of the phone's entry. */
type RowTools = ComponentType<{ c: Countdown; send: Send }>;
export function CountdownsPanel({ world, history = [], gm, send, class: cls = 'area-countdowns', Tools }: { world: World; history?: readonly TransactionView[]; gm: boolean; send: Send; class?: string; Tools?: RowTools }) {
  const { countdowns, chases } = countdownsOf(world);
  // The ruleset's countdown words (ADR 52): exact odds only where it rolls the duality dice they assume.
  const loaded = useOddsLib();
  const words = loaded?.countdownWordsOf(world.rulesetId) ?? null;
  const odds = words?.dualityOdds === true ? loaded : null;
  // The roll the odds assume is the table's last one, shown in words and never typed (ADR 57).
  const assumed = odds?.assumedRoll(history) ?? null;
  const source: OutcomeSource = assumed?.source ?? { modifier: 2, difficulty: 12 };
  const byId = new Map<string, CountdownShown>(countdowns.map((c) => [c.id, c]));
  const inChase = new Set(chases.flatMap((c) => [c.progressId, c.consequenceId]));
  const shown = gm ? countdowns : countdowns.filter((c) => c.visibility !== 'hidden');
  return (
    <section class={`panel ${cls}`} aria-labelledby="cd-title">
      <h2 id="cd-title">Countdowns</h2>
      {gm && assumed !== null && countdowns.some((c) => !isRedacted(c) && c.kind !== 'longTerm' && c.kind !== 'manual') ? (
        <p class="small muted" data-testid="odds-assume">
          Odds assume {assumed.words}.
        </p>
      ) : null}
      {chases.map((ch) => {
        const line = odds?.chaseLine(ch, byId, source) ?? null;
        return (
          <div key={ch.id} class="countdown" data-testid="chase">
            <strong>Chase: {ch.name}</strong>
            {ch.result ? <span class="badge accent"> {ch.result === 'pcs' ? 'the PCs won' : ch.result === 'other' ? 'the other side won' : 'both on one roll'}</span> : null}
            {line ? (
              <p class="odds-line small" data-testid="chase-odds">
                {line.pcs} first · {line.other} first{line.both ? ` · ${line.both}` : ''}
                {line.expected ? <span class="muted"> · {line.expected}</span> : null}
              </p>
            ) : null}
          </div>
        );
      })}
      {shown.length === 0 ? <p class="muted">No countdowns.</p> : null}
      <ul class="list" aria-label="Countdowns">
        {shown.map((c) => (
          <li key={c.id}>
            <CountdownRow c={c} gm={gm} send={send} source={source} inChase={inChase.has(c.id)} odds={odds !== null} Tools={Tools} />
          </li>
        ))}
      </ul>
      {gm && countdowns.some((c) => !isRedacted(c) && c.status === 'active' && c.kind !== 'longTerm' && c.kind !== 'manual') && words !== null ? <ActionRoll send={send} words={words} /> : null}
      {gm && words !== null ? <CreateCountdown send={send} countdowns={countdowns.filter((c): c is Countdown => !isRedacted(c))} kinds={words.kinds} /> : null}
    </section>
  );
}

function CountdownRow({ c, gm, send, source, inChase, odds: withOdds, Tools }: { c: CountdownShown; gm: boolean; send: Send; source: OutcomeSource; inChase: boolean; odds: boolean; Tools?: RowTools | undefined }) {
  const lib = useOddsLib();
  if (isRedacted(c)) {
    return (
      <div class="countdown" data-testid="countdown">
        <strong>{c.name}</strong> <span class="badge">value hidden</span>
      </div>
    );
  }
  const total = Math.max(c.start, c.value, 1);
  const odds = !inChase && gm && withOdds ? (lib?.dynamicLine(c, source) ?? null) : null;
  return (
    <div class="countdown" data-testid="countdown">
      <div class="row">
        <strong class="grow">{c.name}</strong>
        <span class="badge">{c.kind === 'longTerm' ? 'long-term' : c.kind === 'manual' ? 'by hand' : c.kind}</span>
        {c.repeat !== 'once' ? <span class="badge">{c.repeat}</span> : null}
        {c.status !== 'active' ? <span class={`badge ${c.status === 'ended' ? 'bad' : ''}`}>{c.status}</span> : null}
        {gm && c.visibility !== 'visible' && lib !== null ? <span class="badge warn">{lib.visibilityChip(c.visibility)}</span> : null}
      </div>
      <div class="track" role="meter" aria-label={`${c.name}: ${c.value} of ${total} left`} aria-valuemin={0} aria-valuemax={total} aria-valuenow={c.value}>
        {total <= 40 ? Array.from({ length: total }, (_, i) => <span key={i} class={i < c.value ? 'seg on' : 'seg'} />) : <span class="mono">{c.value}</span>}
        <span class="small" style={{ marginLeft: '6px' }}>
          {c.value}
        </span>
      </div>
      {c.triggers > 0 ? <div class="small">Triggered {c.triggers}×</div> : null}
      {/* Its texts (000 "Using a Countdown"; a decreasing one's major event), where this view holds them. */}
      {(
        [
          ['', c.effect],
          ['Activates when: ', c.activation],
          ['Advances when: ', c.advancement],
          ['At 0 for good: ', c.finalEffect],
        ] as const
      ).map(([k, t]) => (t ? <div class="small muted" key={k}>{k + t}</div> : null))}
      {c.beats.length > 0 ? (
        // Story beats, each reached as the countdown ticks past it (players get only the reached ones they may learn).
        <ul class="small" aria-label={`${c.name}: story beats`} data-testid="countdown-beats">
          {c.beats.map((b) => (
            <li key={b.at}>
              {b.at}: {b.text}
              {c.value <= b.at ? ' (reached)' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {odds ? (
        <div class="odds-line small" data-testid="countdown-odds">
          {odds}
        </div>
      ) : null}
      {gm ? (
        <div class="row" style={{ marginTop: '4px' }}>
          {/* Tick, Remove and the rest are the GM screen's Tools (TableKeeping.tsx): the phone's entry never carries them. */}
          {lib !== null ? (
            <>
              <label class="sr-only" for={`vis-${c.id}`}>
                Visibility of {c.name}
              </label>
              <select id={`vis-${c.id}`} class="small" value={c.visibility} onChange={(e) => {
                  const cmd = visibilityCommand(c.id, c.visibility, e.currentTarget.value);
                  if (cmd) void send(cmd);
                }}>
                {lib.VISIBILITY_WORDS.map((v) => (
                  <option key={v.value} value={v.value}>
                    {v.label}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          {Tools ? <Tools c={c} send={send} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A roll made at the table: its outcome moves every standard, dynamic and
 * chase countdown by the advancement table, in one command (one undo step).
 * Its words are the ruleset's (ADR 52): "with Hope" only where a roll has Hope.
 */
function ActionRoll({ send, words }: { send: Send; words: CountdownWords }) {
  return (
    <div class="row" role="group" aria-label={`Tick countdowns from ${words.rollLabel.toLowerCase()}`} style={{ margin: '8px 0' }}>
      <span class="small">{words.rollLabel}:</span>
      {words.outcomes.map((o) => (
        <button key={o.value} class="small" onClick={() => void send({ type: 'countdown.outcome', outcome: o.value })}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
