// The attack panel (36th Way, teams, OSR): pick attacker, target and how, see
// the exact odds the server's query answers on this viewer's own view, then
// send the ruleset's real attack command. The result arrives in the log and
// the tracker like any other command's.
import { useEffect, useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import type { QueryAnswer } from '../net/codec.ts';
import { attackCommand, attackRulesOf, currentFighter, DEFAULT_FORM, defaultTarget, describeOdds, fightersOf, oddsQuery, optionsFor, ownFighters, type Ask, type AttackForm } from '../lib/attack.ts';
import type { Send } from './types.ts';

export interface AttackPanelProps {
  readonly world: World;
  readonly enc: EncounterState | null;
  readonly gm: boolean;
  readonly send: Send;
  readonly ask: Ask;
  /** Combatant ids a player controls (only their own characters may attack). */
  readonly mine?: readonly string[];
}

export function AttackPanel({ world, enc, gm, send, ask, mine = [] }: AttackPanelProps) {
  const rules = attackRulesOf(world);
  const [form, setForm] = useState<AttackForm>(DEFAULT_FORM);
  const [answer, setAnswer] = useState<QueryAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const all = rules === null ? [] : fightersOf(world, rules, enc);
  const attackers = gm ? all : ownFighters(all, enc, mine);
  // Default attacker: the current actor when they may attack, else the first one this viewer may use.
  const now = currentFighter(attackers, enc);
  const attacker = attackers.some((f) => f.id === form.attacker) ? form.attacker : (now ?? attackers[0]?.id ?? '');
  const targets = all.filter((f) => f.id !== attacker);
  const target = targets.some((f) => f.id === form.target) ? form.target : defaultTarget(targets, all.find((x) => x.id === attacker), enc);
  const options = rules === null || attacker === '' ? [] : optionsFor(world, rules, attacker);
  const option = options.some((o) => o.value === form.option) ? form.option : (options[0]?.value ?? '');
  const f: AttackForm = { ...form, attacker, target, option };
  const q = rules === null ? null : oddsQuery(rules, f);
  const qKey = q === null ? '' : JSON.stringify(q);

  // Ask again whenever the choices or the table change (escalation, conditions, hit points...).
  useEffect(() => {
    if (q === null) {
      setAnswer(null);
      return;
    }
    let live = true;
    void ask(q.name, q.args).then((a) => {
      if (live) setAnswer(a);
    });
    return () => {
      live = false;
    };
  }, [qKey, world]);

  if (rules === null || attackers.length === 0 || targets.length === 0) return null;
  const set = (patch: Partial<AttackForm>) => setForm({ ...f, ...patch });
  const words = answer?.ok === true ? describeOdds(rules, answer.result) : null;
  const tgt = all.find((x) => x.id === target);
  const cmd = attackCommand(rules, f);
  const id = (k: string) => `atk-${k}`;
  return (
    <section class="attack" aria-labelledby={id('title')} data-testid="attack-panel" style={{ borderTop: '1px solid var(--border)', marginTop: '8px', paddingTop: '4px' }}>
      <h3 id={id('title')}>Attack</h3>
      <div class="row" style={{ alignItems: 'flex-end' }}>
        <div class="field">
          <label for={id('attacker')}>Attacker</label>
          <select id={id('attacker')} value={attacker} onChange={(e) => set({ attacker: e.currentTarget.value, option: '' })}>
            {attackers.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={id('target')}>Target</label>
          <select id={id('target')} value={target} onChange={(e) => set({ target: e.currentTarget.value })}>
            {targets.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={id('option')}>{rules === 'teams' ? 'Weapon' : rules === 'osr' ? 'Kind' : 'Attack'}</label>
          <select id={id('option')} value={option} onChange={(e) => set({ option: e.currentTarget.value })}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        {rules === '36th-way' ? (
          <>
            <div class="field">
              <label for={id('defense')}>Against</label>
              <select id={id('defense')} value={f.defense} onChange={(e) => set({ defense: e.currentTarget.value })}>
                <option value="ac">AC</option>
                <option value="pd">PD</option>
                <option value="md">MD</option>
              </select>
            </div>
            <NumberField id={id('adv')} label="Advantage (±)" value={f.advantage} min={-6} max={6} onInput={(v) => set({ advantage: v })} />
          </>
        ) : null}
        {rules === 'osr' ? (
          <>
            {option !== 'melee' ? (
              <div class="field">
                <label for={id('range')}>Range</label>
                <select id={id('range')} value={f.range} onChange={(e) => set({ range: e.currentTarget.value === 'ranged' ? 'ranged' : 'close' })}>
                  <option value="close">Close (in melee)</option>
                  <option value="ranged">Ranged</option>
                </select>
              </div>
            ) : null}
            <div class="field">
              <label for={id('adv')}>Roll</label>
              <select id={id('adv')} value={String(f.advantage)} onChange={(e) => set({ advantage: Number(e.currentTarget.value) })}>
                <option value="0">Normal</option>
                <option value="1">Advantage</option>
                <option value="-1">Disadvantage</option>
              </select>
            </div>
            <div class="field">
              <label for={id('damage')}>Damage</label>
              <input id={id('damage')} value={f.damage} size={6} onInput={(e) => set({ damage: e.currentTarget.value })} />
            </div>
          </>
        ) : null}
        <NumberField id={id('bonus')} label="Bonus" value={f.bonus} min={-30} max={30} onInput={(v) => set({ bonus: v })} />
      </div>
      {rules === 'teams' || rules === 'osr' ? (
        <div class="row small">
          {rules === 'teams' ? (
            <>
              <label>
                <input type="checkbox" checked={f.sneak} onChange={(e) => set({ sneak: e.currentTarget.checked })} /> Sneak attack
              </label>
              <label>
                <input type="checkbox" checked={f.flank} onChange={(e) => set({ flank: e.currentTarget.checked })} /> Flanking
              </label>
            </>
          ) : (
            <label>
              <input type="checkbox" checked={f.proficient} onChange={(e) => set({ proficient: e.currentTarget.checked })} /> Proficient
            </label>
          )}
        </div>
      ) : null}
      <p class="attack-odds" aria-live="polite" data-testid="attack-odds">
        {words !== null ? (
          <>
            <strong>{words.headline}</strong>
            <br />
            <span class="small muted">{words.detail}</span>
          </>
        ) : answer?.ok === false ? (
          <span class="small muted">No odds: {answer.error.message}</span>
        ) : (
          <span class="small muted">Odds…</span>
        )}
      </p>
      <div class="row">
        <button
          class="primary"
          disabled={cmd === null || busy}
          onClick={() => {
            if (cmd === null) return;
            setBusy(true);
            void send(cmd).finally(() => setBusy(false));
          }}
        >
          Attack
        </button>
        {tgt?.health ? (
          <span class="small muted" data-testid="attack-target-health">
            {tgt.name}: {tgt.health}
          </span>
        ) : null}
      </div>
    </section>
  );
}

function NumberField({ id, label, value, min, max, onInput }: { id: string; label: string; value: number; min: number; max: number; onInput: (v: number) => void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        value={value}
        min={min}
        max={max}
        step={1}
        style={{ width: '5em' }}
        onInput={(e) => {
          const v = Number(e.currentTarget.value);
          if (Number.isInteger(v)) onInput(Math.max(min, Math.min(max, v)));
        }}
      />
    </div>
  );
}
