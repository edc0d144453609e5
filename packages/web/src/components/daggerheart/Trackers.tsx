// Shared Daggerheart pieces: slot rows (HP, Stress, Armor), the Fear tracker,
// and the duality dice with the Hope and Fear dice labelled and coloured.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { dualitySum, fearOf, OUTCOME_LABELS, type PcTracks, type ShownRoll } from '../../lib/daggerheart.ts';
import type { Send } from '../types.ts';
import './daggerheart.css';

/** A row of slots, marked ones filled; `label` names the meter for screen readers and tests. */
export function Slots({ label, marked, slots, kind }: { label: string; marked: number; slots: number; kind: 'hp' | 'stress' | 'armor' | 'hope' | 'fear' }) {
  return (
    <span class={`dh-slots dh-${kind}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={slots} aria-valuenow={marked} data-testid={`slots-${label}`}>
      {Array.from({ length: slots }, (_, i) => (
        <span key={i} class={i < marked ? 'dh-slot on' : 'dh-slot'} aria-hidden="true" />
      ))}
      <span class="dh-count">
        {marked}/{slots}
      </span>
    </span>
  );
}

/** Hope, HP, Stress and Armor of one character; `markable` lists the tracks this viewer may mark, `clearable` whether they may clear them (the GM). */
export function CharacterTracks({ t, send, markable, clearable = true }: { t: PcTracks; send: Send; markable: readonly ('hp' | 'stress' | 'armor')[]; clearable?: boolean }) {
  const rows = [
    ['hp', 'HP', t.hp],
    ['stress', 'Stress', t.stress],
    ['armor', 'Armor', t.armor],
  ] as const;
  return (
    <div class="dh-tracks" data-testid={`tracks-${t.name}`}>
      {t.hopeMax > 0 ? (
        <div class="row">
          <span class="dh-track-name">Hope</span>
          <Slots label={`${t.name} Hope`} marked={t.hope} slots={t.hopeMax} kind="hope" />
        </div>
      ) : null}
      {rows.map(([key, word, track]) =>
        track.slots === 0 ? null : (
          <div class="row" key={key}>
            <span class="dh-track-name">{word}</span>
            <Slots label={`${t.name} ${word}`} marked={track.marked} slots={track.slots} kind={key} />
            {markable.includes(key) ? (
              <span class="row" role="group" aria-label={`${t.name} ${word}`}>
                <button class="small" aria-label={`Mark ${word} for ${t.name}`} disabled={track.marked >= track.slots} onClick={() => send({ type: 'daggerheart.markTrack', characterId: t.id, track: key, amount: 1 })}>
                  +
                </button>
                {clearable ? (
                  <button class="small" aria-label={`Clear ${word} for ${t.name}`} disabled={track.marked === 0} onClick={() => send({ type: 'daggerheart.markTrack', characterId: t.id, track: key, amount: -1 })}>
                    −
                  </button>
                ) : null}
              </span>
            ) : null}
          </div>
        ),
      )}
      {t.thresholds ? (
        <p class="small muted">
          Thresholds: Major {t.thresholds.major} · Severe {t.thresholds.severe}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The damage box: an amount, and the severity the server works out. Whether to
 * mark an Armor Slot is the PC's player's choice, asked when the hit lands (ADR 50).
 */
export function DamageBox({ t, send }: { t: PcTracks; send: Send }) {
  const [amount, setAmount] = useState('');
  const n = Number(amount);
  return (
    <form
      class="row"
      aria-label={`Damage box for ${t.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!Number.isInteger(n) || n < 0) return;
        void send({ type: 'daggerheart.takeDamage', characterId: t.id, amount: n }).then((r) => r.ok && setAmount(''));
      }}
    >
      <input class="small" type="number" min={0} max={500} inputMode="numeric" aria-label={`Damage to ${t.name}`} value={amount} onInput={(e) => setAmount(e.currentTarget.value)} style={{ width: '5em' }} />
      <button class="small" type="submit" disabled={amount === '' || !t.thresholds}>
        Damage
      </button>
    </form>
  );
}

export function FearTracker({ world, gm, send }: { world: World; gm: boolean; send: Send }) {
  const { fear, max } = fearOf(world);
  const [reason, setReason] = useState('');
  // A table that keeps Fear from the players sends them none: nothing to show.
  if (fear === null) return null;
  return (
    <section class="panel dh-fear" aria-labelledby="dh-fear-title" data-testid="fear-tracker">
      <h2 id="dh-fear-title">
        <span>Fear</span>
        <span class="badge" data-testid="fear-value">
          {fear}/{max}
        </span>
      </h2>
      <Slots label="GM Fear" marked={fear} slots={max} kind="fear" />
      {gm ? (
        <div class="row" role="group" aria-label="Fear">
          <input class="small" aria-label="Reason" placeholder="reason (optional)" maxLength={80} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <button class="small" disabled={fear >= max} onClick={() => void send({ type: 'daggerheart.gainFear', amount: 1, ...(reason ? { reason } : {}) }).then((r) => r.ok && setReason(''))}>
            Gain Fear
          </button>
          <button class="small" disabled={fear === 0} onClick={() => void send({ type: 'daggerheart.spendFear', amount: 1, ...(reason ? { reason } : {}) }).then((r) => r.ok && setReason(''))}>
            Spend Fear
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** The Hope and Fear dice by name and colour, any advantage die, and the outcome. */
export function DualityDice({ roll, who }: { roll: ShownRoll; who: string }) {
  const adv = roll.advantageDice.length === 0 ? null : (
    <span class="dh-die dh-adv" aria-label={`${roll.advantageSign > 0 ? 'Advantage' : 'Disadvantage'} ${roll.advantageDice.join(', ')}`}>
      <span class="dh-die-name">{roll.advantageSign > 0 ? 'Adv' : 'Dis'}</span>
      {roll.advantageDice.join(', ')}
    </span>
  );
  return (
    <div class="dh-roll" data-testid="duality-roll" data-outcome={roll.outcome}>
      <p class="small">
        {who}
        {roll.label ? `: ${roll.label}` : ''}
      </p>
      <div class="row">
        <span class="dh-die dh-hope-die" data-testid="hope-die" aria-label={`Hope die ${roll.hope}`}>
          <span class="dh-die-name">Hope</span>
          {roll.hope}
        </span>
        <span class="dh-die dh-fear-die" data-testid="fear-die" aria-label={`Fear die ${roll.fear}`}>
          <span class="dh-die-name">Fear</span>
          {roll.fear}
        </span>
        {adv}
      </div>
      {/* The sum with every term named, the modifier included (review 10). */}
      <p data-testid="duality-sum">
        {dualitySum(roll)} = <strong data-testid="duality-total">{roll.total}</strong>
        {roll.difficulty === null ? '' : ` vs ${roll.difficulty}`}
      </p>
      <p>
        <strong data-testid="duality-outcome">{OUTCOME_LABELS[roll.outcome]}</strong>
      </p>
    </div>
  );
}
