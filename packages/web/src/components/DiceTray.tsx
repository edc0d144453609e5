// The dice tray: a notation box whose parse error is shown in place (a caret
// under the column), a roll log, and the exact odds of the expression as an
// SVG chart with the probability of its comparison. At a table, Roll sends
// `dice.roll`: the server rolls and records every die, and the tray lists the
// table's recorded rolls. With no table (the landing page) it rolls in the
// browser. Odds are always computed here: odds are not rolls.
import { useMemo, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { constantText, oddsOf, rollOf, tableRollError, tableRolls, trayErrorFromMessage, type TrayOdds, type TrayRoll, type TrayError } from '../lib/dice.ts';
import { OddsChart, pct } from './OddsChart.tsx';
import type { Send } from './types.ts';

export const DICE_INPUT_ID = 'dice-expr';
/** Rolls kept in the tray's own log. */
export const MAX_TRAY_LOG = 50;

export interface DiceTrayProps {
  readonly class?: string;
  /** At a table: Roll sends `dice.roll` (the server rolls and records it). Absent offline: rolls in the browser. */
  readonly send?: Send;
  /** The viewer's world, whose log holds the table's recorded rolls (with `send`). */
  readonly world?: World;
  readonly title?: string;
  /** The GM's tray: the secret-roll switch reads "only you see it". */
  readonly gm?: boolean;
  /** Start with the secret-roll switch on (the GM rolls behind the screen by default). */
  readonly secretByDefault?: boolean;
}

export function DiceTray({ class: cls = '', send, world, title = 'Dice', gm = false, secretByDefault = false }: DiceTrayProps) {
  const [expr, setExpr] = useState('2d6+3');
  const [secret, setSecret] = useState(secretByDefault);
  const [label, setLabel] = useState('');
  const [local, setLocal] = useState<TrayRoll[]>([]);
  const [rollError, setRollError] = useState<TrayError | null>(null);
  const [busy, setBusy] = useState(false);
  const [showOdds, setShowOdds] = useState(true);
  // Odds recomputed as the user types: exact, and fast enough for tray-sized expressions.
  const odds = useMemo(() => (expr.trim() === '' ? null : oddsOf(expr)), [expr]);
  const parseError: TrayError | null = odds && !odds.ok && odds.error.kind === 'parse' ? odds.error : rollError;
  const log = send && world ? tableRolls(world, MAX_TRAY_LOG) : local;

  const roll = async () => {
    if (send) {
      const bad = tableRollError(expr);
      if (bad) return setRollError(bad);
      setRollError(null);
      setBusy(true);
      const r = await send({ type: 'dice.roll', notation: expr, audience: secret ? 'gm' : 'table', ...(label.trim() ? { label: label.trim() } : {}) });
      setBusy(false);
      if (!r.ok) setRollError(trayErrorFromMessage(r.rejection.message, r.rejection.column));
      return;
    }
    const r = rollOf(expr);
    if (!r.ok) {
      setRollError(r.error);
      return;
    }
    setRollError(null);
    setLocal((l) => [r.value, ...l].slice(0, MAX_TRAY_LOG));
  };

  return (
    <section class={`panel ${cls}`} aria-labelledby="dice-title">
      <h2 id="dice-title">{title}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void roll();
        }}
      >
        <label for={DICE_INPUT_ID}>Dice notation</label>
        <div class="row" style={{ flexWrap: 'nowrap', marginTop: '4px' }}>
          <input
            id={DICE_INPUT_ID}
            class="dice-input grow"
            value={expr}
            onInput={(e) => {
              setExpr(e.currentTarget.value);
              setRollError(null);
            }}
            maxLength={1000}
            autocomplete="off"
            autocapitalize="off"
            spellcheck={false}
            aria-invalid={parseError ? 'true' : 'false'}
            aria-describedby="dice-help dice-error"
            aria-keyshortcuts="r"
            placeholder="4d6kh3, 3d6 vs 13, 10d10>=8, 1d20+5 # to hit"
          />
          <button type="submit" class="primary" disabled={busy}>
            Roll
          </button>
        </div>
        <div id="dice-error" aria-live="polite">
          {parseError ? <ErrorCaret expr={expr} error={parseError} /> : null}
        </div>
        <span id="dice-help" class="small muted">
          e.g. <code>4d6kh3</code>, <code>2d20kl1+4</code>, <code>3d6&gt;=13</code>. Enter rolls.
        </span>
      </form>
      {send ? (
        <div class="field" style={{ marginTop: '6px' }}>
          <label for="dice-label">Roll for (optional)</label>
          <input id="dice-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} maxLength={100} autocomplete="off" placeholder="Climb the wall, Goblin's attack…" />
        </div>
      ) : null}
      {send ? (
        <label class="row small" style={{ fontWeight: 400, marginTop: '8px' }}>
          <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.currentTarget.checked)} style={{ minHeight: 'auto' }} /> Secret roll{' '}
          <span class="muted">({gm ? 'only you see it' : 'only you and the GM see it'})</span>
        </label>
      ) : null}
      <label class="row small" style={{ fontWeight: 400, marginTop: '8px' }}>
        <input type="checkbox" checked={showOdds} onChange={(e) => setShowOdds(e.currentTarget.checked)} style={{ minHeight: 'auto' }} /> Show odds
      </label>
      {showOdds && odds && odds.ok ? <OddsView odds={odds.value} /> : null}
      {showOdds && odds && !odds.ok && odds.error.kind !== 'parse' ? <p class="small muted">{odds.error.message}</p> : null}
      <h3 style={{ marginTop: '10px' }}>{send ? 'Table rolls' : 'Rolls'}</h3>
      {log.length === 0 ? (
        <p class="muted small">No rolls yet.</p>
      ) : (
        <ol class="list roll-log" aria-label="Roll log" tabIndex={0} data-testid="roll-log">
          {log.map((r, i) => (
            <li key={r.key ?? log.length - i}>
              <div class="row">
                <span class="roll-total" data-testid="roll-total">
                  {r.total}
                </span>
                <code class="grow small">{r.expr}</code>
                {r.who ? <span class="small">{r.who}</span> : null}
                {r.secret ? <span class="badge warn">secret</span> : null}
                {r.outcome ? <span class={`badge ${r.success === false ? 'bad' : r.success ? 'ok' : ''}`}>{r.outcome}</span> : null}
              </div>
              {r.label ? <div class="small muted">{r.label}</div> : null}
              <div aria-label="Dice">
                {r.dice.map((d, j) => (
                  <span key={j} class={d.kept ? 'die' : 'die dropped'} title={`d${d.sides}${d.exploded ? ' (exploded)' : ''}${d.kept ? '' : ' (dropped)'}`}>
                    {d.value}
                    {d.exploded ? '!' : ''}
                  </span>
                ))}
                {(r.constants ?? []).map((c, j) => (
                  <span key={`c${j}`} class="die constant" data-testid="roll-constant" title={`${c.label}: a fixed ${c.value < 0 ? '' : '+'}${c.value}`}>
                    {constantText(c)}
                  </span>
                ))}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The expression with a caret under the offending column, and the message. */
function ErrorCaret({ expr, error }: { expr: string; error: TrayError }) {
  const col = Math.max(0, Math.min(expr.length, error.position));
  return (
    <div class="error small" data-testid="dice-error">
      <pre class="caret-line" aria-hidden="true">
        {expr}
        {'\n'}
        {' '.repeat(col)}^
      </pre>
      <span>
        Column {col + 1}: {error.message}
      </span>
    </div>
  );
}

function OddsView({ odds }: { odds: TrayOdds }) {
  return (
    <div data-testid="odds">
      <p class="small" style={{ margin: '6px 0' }}>
        mean <strong>{fmt(odds.mean)}</strong> · sd {fmt(odds.stddev)} · range {odds.min}–{odds.max}
        {odds.probability !== undefined ? (
          <>
            {' '}
            · <span class="odds-line" data-testid="probability">
              {pct(odds.probability)} {odds.comparisonText}
            </span>
          </>
        ) : null}
      </p>
      <OddsChart points={odds.points} isHit={odds.isHit} title={`Distribution of ${odds.expr}`} />
      {odds.truncated > 0 ? <p class="small muted">Explosions cut at the cap: {pct(odds.truncated, 3)} of the mass is beyond it.</p> : null}
    </div>
  );
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}
