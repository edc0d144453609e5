// The GM's "new countdown or chase" form, in its own chunk: the engine's
// countdown limits it reads bring in the dice code, which a phone never needs.
import { useState } from 'preact/hooks';
import type { Countdown } from '@tablekeeper/engine';
import { LONG_TERM_MAX, LONG_TERM_MIN, MAX_COUNTDOWN_VALUE } from '@tablekeeper/engine';
import { VISIBILITY_WORDS, type CountdownWords } from '@tablekeeper/rulesets/browser';
import { parseBeats } from '../lib/beats.ts';
import type { Send } from './types.ts';

const REPEATS = [
  ['once', 'Once'],
  ['loop', 'Loop'],
  ['increasing', 'Increasing'],
  ['decreasing', 'Decreasing'],
] as const;
/** `kinds`: the ones this ruleset ticks (ADR 52), the default first. */
export function CreateCountdown({ send, countdowns, kinds }: { send: Send; countdowns: Countdown[]; kinds: CountdownWords['kinds'] }) {
  const first = kinds[0]?.value ?? 'manual';
  const [chase, setChase] = useState(false);
  const [kind, setKind] = useState<string>(first);
  const [repeat, setRepeat] = useState<string>('once');
  // The typed start die: a looping countdown that rolls its start may roll it again at each reset (our extension of 000).
  const [die, setDie] = useState('');
  const canReroll = repeat === 'loop' && die.trim() !== '';
  const [beatError, setBeatError] = useState<string | null>(null);
  // The server's own limits: a long-term countdown runs 4-12 ticks (000 "Long-Term Countdowns").
  const range: readonly [number, number] = kind === 'longTerm' ? [LONG_TERM_MIN, LONG_TERM_MAX] : [1, MAX_COUNTDOWN_VALUE];
  return (
    <details style={{ marginTop: '8px' }}>
      <summary>New countdown or chase</summary>
      <label class="row small" style={{ fontWeight: 400 }}>
        <input type="checkbox" checked={chase} onChange={(e) => setChase(e.currentTarget.checked)} style={{ minHeight: 'auto' }} /> Chase (a progress and a consequence countdown)
      </label>
      {chase ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            void send({
              type: 'chase.create',
              name: String(f.get('name')),
              pcs: String(f.get('pcs')),
              die: Number(f.get('die')),
              lead: Number(f.get('lead')),
              progressName: String(f.get('pname') ?? ''),
              consequenceName: String(f.get('cname') ?? ''),
              visibility: String(f.get('visibility')),
            });
            e.currentTarget.reset();
          }}
        >
          <div class="field">
            <label for="ch-name">Chase name</label>
            <input id="ch-name" name="name" required maxLength={80} />
          </div>
          <div class="row">
            <div class="field grow">
              <label for="ch-pname">Progress countdown (the PCs')</label>
              <input id="ch-pname" name="pname" maxLength={80} placeholder="Catch the thief" />
            </div>
            <div class="field grow">
              <label for="ch-cname">Consequence countdown (the other side's)</label>
              <input id="ch-cname" name="cname" maxLength={80} placeholder="The thief escapes" />
            </div>
          </div>
          <div class="row">
            <div class="field" style={{ width: '6em' }}>
              <label for="ch-die">Die size</label>
              <input id="ch-die" name="die" type="number" min={2} max={100} required defaultValue="8" aria-describedby="ch-help" />
            </div>
            <div class="field" style={{ width: '6em' }}>
              <label for="ch-lead">Lead</label>
              <input id="ch-lead" name="lead" type="number" min={1} max={99} required defaultValue="4" aria-describedby="ch-help" />
            </div>
          </div>
          <p id="ch-help" class="small muted">
            The pursuers' countdown starts at the die size; the side running away starts at its lead. Each roll's outcome ticks both by the advancement table: a success moves the progress countdown, a failure or a success at a cost the consequence countdown.
          </p>
          <div class="row">
            <div class="field">
              <label for="ch-pcs">The PCs are</label>
              <select id="ch-pcs" name="pcs">
                <option value="pursuing">pursuing</option>
                <option value="escaping">escaping</option>
              </select>
            </div>
            <VisibilityField id="ch-vis" />
          </div>
          <button type="submit">Create chase</button>
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const startDie = String(f.get('startDie') ?? '').trim();
            // Story beats belong to a long-term countdown with a fixed start (one beat per value it passes).
            const typed = kind === 'longTerm' ? String(f.get('beats') ?? '') : '';
            const read = parseBeats(typed, Number(f.get('start')));
            if (!read.ok) return setBeatError(read.message);
            if (read.beats.length > 0 && startDie !== '') return setBeatError('Story beats need a fixed start: clear "or roll it".');
            setBeatError(null);
            const beats = read.beats;
            // 000 "Using a Countdown": activation and advancement are the GM's notes; a decreasing countdown's major event
            // is what happens when it would reset to 0 ("Increasing or Decreasing"). Each is sent only when typed.
            const notes: { [k: string]: string } = {};
            for (const k of ['activation', 'advancement', ...(repeat === 'decreasing' ? ['finalEffect'] : [])]) {
              const v = String(f.get(k) ?? '').trim();
              if (v !== '') notes[k] = v;
            }
            void send({
              type: 'countdown.create',
              name: String(f.get('name')),
              kind: String(f.get('kind')),
              repeat: String(f.get('repeat')),
              visibility: String(f.get('visibility')),
              effect: String(f.get('effect') ?? ''),
              ...(startDie ? { startDie } : { start: Number(f.get('start')) }),
              ...(beats.length > 0 ? { beats } : {}),
              ...(canReroll && f.get('rerollOnReset') !== null ? { rerollOnReset: true } : {}),
              ...notes,
            });
            e.currentTarget.reset();
            setKind(first);
            setRepeat('once');
            setDie('');
          }}
        >
          <div class="field">
            <label for="cd-name">Name</label>
            <input id="cd-name" name="name" required maxLength={80} />
          </div>
          <div class="row">
            <div class="field grow">
              <label for="cd-kind">Kind</label>
              <select id="cd-kind" name="kind" onChange={(e) => setKind(e.currentTarget.value)}>
                {kinds.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="cd-repeat">After it triggers</label>
              <select id="cd-repeat" name="repeat" onChange={(e) => setRepeat(e.currentTarget.value)}>
                {REPEATS.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div class="row">
            <div class="field" style={{ width: '6em' }}>
              <label for="cd-start">Start</label>
              <input id="cd-start" name="start" type="number" min={range[0]} max={range[1]} defaultValue="4" aria-describedby="cd-start-range" />
              <span id="cd-start-range" class="small muted">
                {range[0]}-{range[1]}
              </span>
            </div>
            <div class="field" style={{ width: '8em' }}>
              <label for="cd-die">or roll it</label>
              <input id="cd-die" name="startDie" placeholder="1d6" maxLength={12} value={die} onInput={(e) => setDie(e.currentTarget.value)} />
            </div>
            <VisibilityField id="cd-vis" />
          </div>
          {canReroll ? (
            <>
              <label class="row small" style={{ fontWeight: 400 }}>
                <input type="checkbox" name="rerollOnReset" aria-describedby="cd-reroll-help" style={{ minHeight: 'auto' }} /> Roll the start again at each reset
              </label>
              <p id="cd-reroll-help" class="small muted">
                Each time it runs out and loops, it starts over from a fresh roll of {die.trim()} instead of the first roll's value.
              </p>
            </>
          ) : null}
          <div class="field">
            <label for="cd-effect">When it triggers</label>
            <input id="cd-effect" name="effect" maxLength={500} />
          </div>
          {repeat === 'decreasing' ? (
            <div class="field">
              <label for="cd-final">When it runs out for good (the major event at 0)</label>
              <input id="cd-final" name="finalEffect" maxLength={500} placeholder="the caves collapse entirely" />
            </div>
          ) : null}
          <div class="row">
            <div class="field grow">
              <label for="cd-activation">Activates when (optional)</label>
              <input id="cd-activation" name="activation" maxLength={500} placeholder="the PCs enter the camp" />
            </div>
            <div class="field grow">
              <label for="cd-advancement">Advances when (optional)</label>
              <input id="cd-advancement" name="advancement" maxLength={500} placeholder="each action roll" />
            </div>
          </div>
          {kind === 'longTerm' ? (
            <>
              <div class="field">
                <label for="cd-beats">Story beats (one a line, "value: what happens")</label>
                <textarea id="cd-beats" name="beats" rows={3} maxLength={6000} placeholder={'5: the cult recruits the mayor\n!2: the ritual site is chosen'} aria-describedby={beatError !== null ? 'cd-beats-help cd-beats-error' : 'cd-beats-help'} />
                <span id="cd-beats-help" class="small muted">
                  Start a line with ! for news the players learn of when the countdown reaches it ("!6: troops gather at the border"); the other beats stay yours.
                </span>
              </div>
              {beatError !== null ? (
                <p id="cd-beats-error" class="error small" role="alert">
                  {beatError}
                </p>
              ) : null}
            </>
          ) : null}
          <button type="submit">Create countdown</button>
          {countdowns.length > 0 ? <p class="small muted">{countdowns.length} countdown(s) on the table.</p> : null}
        </form>
      )}
    </details>
  );
}

function VisibilityField({ id }: { id: string }) {
  return (
    <div class="field">
      <label for={id}>Players see</label>
      <select id={id} name="visibility">
        {VISIBILITY_WORDS.map((v) => (
          <option key={v.value} value={v.value}>
            {v.label}
          </option>
        ))}
      </select>
    </div>
  );
}
