// The 36th Way's rests on the GM's clock panel (002 "Quick Rest", "Full
// Rest"): before a quick rest the GM says how many recoveries each PC spends
// (GM review: they were hand-edited in the sheet editor); the server rolls or
// averages each and logs the healing, shown here under the buttons.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { keptSheetIdOf, restsOf } from '@tablekeeper/rulesets/browser';
import { pendingRequests, requestsOf } from '@tablekeeper/engine/requests';
import { dyingNote, MAX_SPEND, nobodySpendsNote, overSpendNote, quickRestCommand, recoveryLine, recoveryRowsOf, startingSpend } from '../lib/quickRest.ts';
import { sentenceOf } from '../lib/words.ts';
import { namesOf } from '../lib/encounter.ts';
import type { Send } from './types.ts';

export function TswRests({ world, send }: { world: World; send: Send }) {
  const rows = recoveryRowsOf(world);
  const [typed, setTyped] = useState<{ [id: string]: string }>({});
  const [average, setAverage] = useState(false);
  const [msg, setMsg] = useState<string | null>(null);
  const [since, setSince] = useState<number | null>(null);
  const full = restsOf(world.rulesetId).find((r) => r.command.type === '36th-way.fullRest');
  const results = since === null ? [] : world.log.filter((e) => e.tx > since);
  const go = async (build: () => ReturnType<typeof quickRestCommand>) => {
    const c = build();
    if (!c.ok) return setMsg(c.message);
    const before = world.log.at(-1)?.tx ?? -1;
    const r = await send(c.command);
    setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
    if (r.ok) {
      setSince(before);
      setTyped({});
    }
  };
  return (
    <div role="group" aria-label="Rest by the rules" style={{ marginTop: '8px' }} data-testid="tsw-rests">
      {rows.length > 0 ? (
        <fieldset class="stack small" data-testid="quick-rest-recoveries">
          <legend>Quick rest: recoveries each PC spends</legend>
          {rows.map((r) => {
            const id = `qr-${r.id}`;
            const value = typed[r.id] ?? startingSpend(r);
            const note = overSpendNote(r, Number(value)) ?? dyingNote(r) ?? askedNote(world, r);
            return (
              <div key={r.id} class="row">
                <label for={id} class="grow">
                  {recoveryLine(r)}
                </label>
                <input id={id} type="number" inputMode="numeric" min={0} max={MAX_SPEND} placeholder="0" value={value} style={{ width: '4.5em' }} onInput={(e) => setTyped({ ...typed, [r.id]: e.currentTarget.value })} />
                {note !== null ? <span class="small warn">{note}</span> : null}
              </div>
            );
          })}
          {nobodySpendsNote(rows, typed) !== null ? (
            <p class="small warn" data-testid="quick-rest-none">
              {nobodySpendsNote(rows, typed)}
            </p>
          ) : null}
          <label class="inline">
            <input type="checkbox" checked={average} onChange={(e) => setAverage(e.currentTarget.checked)} /> Take the average instead of rolling (each die rounded down: 2d8 heals 8)
          </label>
        </fieldset>
      ) : null}
      <div class="row">
        <button class="small" title="Encounter powers come back, Recharge powers roll, and each PC heals with the recoveries above" onClick={() => void go(() => quickRestCommand(rows, typed, average))}>
          Quick rest
        </button>
        {full !== undefined ? (
          <button class="small" title={full.summary} onClick={() => void go(() => ({ ok: true, command: full.command as never }))}>
            {full.label}
          </button>
        ) : null}
      </div>
      {rows.length > 0 ? <Downtime rows={rows} onGive={(command) => void go(() => ({ ok: true, command: command as never }))} /> : null}
      <p class="small muted">Quick rest: encounter powers come back, Recharge powers roll, and each PC heals with the recoveries spent above (002 "Quick Rest"). {full ? `${full.label}: ${full.summary}` : ''}</p>
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
      {results.length > 0 ? (
        <ul class="small" aria-label="What the rest did" data-testid="rest-result">
          {results.map((e, i) => (
            <li key={`${e.tx}-${i}`}>{e.text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A player's waiting ask to spend recoveries (ADR 110), said beside their PC's box so the GM does not spend them twice. */
function askedNote(world: World, r: { readonly id: string; readonly name: string }): string | null {
  const asked = pendingRequests(requestsOf(world)).filter((q) => q.kind === 'recoveries' && keptSheetIdOf(world, q.characterId) === r.id);
  return asked.length === 0 ? null : `${r.name}'s player asks to spend ${asked.map((q) => q.amount ?? 0).join(' + ')}: approve it under Players ask and leave this box empty.`;
}

/**
 * Downtime in the middle of an adventuring day (002 "Full Rest": the GM may give a
 * PC a recovery or a daily ability back): one PC, how many recoveries, which spent
 * ability. The server caps the recoveries at the sheet's most and logs what came back.
 */
function Downtime({ rows, onGive }: { rows: ReturnType<typeof recoveryRowsOf>; onGive: (command: { type: string; characterId: string; recoveries?: number; ability?: string }) => void }) {
  const [who, setWho] = useState(rows[0]!.id);
  const [count, setCount] = useState('1');
  const [ability, setAbility] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const row = rows.find((r) => r.id === who) ?? rows[0]!;
  const spent = row.expended.some((a) => a.id === ability) ? ability : '';
  return (
    <details class="small" data-testid="downtime">
      <summary>Downtime: give a PC a recovery or a spent ability back</summary>
      <form
        class="row"
        style={{ alignItems: 'flex-end' }}
        onSubmit={(e) => {
          e.preventDefault();
          const n = count.trim() === '' ? 0 : Number(count);
          if (!Number.isInteger(n) || n < 0 || n > MAX_SPEND) return setProblem(`Recoveries back: a whole number from 0 to ${MAX_SPEND}.`);
          if (n === 0 && spent === '') return setProblem(`Give ${row.name} a recovery, an ability, or both.`);
          setProblem(null);
          onGive({ type: '36th-way.restore', characterId: row.id, ...(n > 0 ? { recoveries: n } : {}), ...(spent !== '' ? { ability: spent } : {}) });
        }}
      >
        <div class="field">
          <label for="downtime-who">PC</label>
          <select id="downtime-who" value={row.id} onChange={(e) => setWho(e.currentTarget.value)}>
            {rows.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({r.recoveries}/{r.maxRecoveries} recoveries)
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="downtime-count">Recoveries back</label>
          <input id="downtime-count" type="number" inputMode="numeric" min={0} max={MAX_SPEND} value={count} style={{ width: '4.5em' }} onInput={(e) => setCount(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="downtime-ability">Ability back</label>
          <select id="downtime-ability" value={spent} onChange={(e) => setAbility(e.currentTarget.value)}>
            <option value="">{row.expended.length === 0 ? 'none spent' : 'none'}</option>
            {row.expended.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <button class="small" type="submit">
          Give back
        </button>
        {problem !== null ? (
          <span class="error small" role="alert">
            {problem}
          </span>
        ) : null}
      </form>
    </details>
  );
}
