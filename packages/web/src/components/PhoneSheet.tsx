// The phone's "My sheet" form (issue 20): the fields of the character's sheet
// that its ruleset lets a player change, generated from the sheet's schema
// (GET /api/rulesets/:id/sheet) and started from the stored values (the
// `character.sheet` query, answered on this player's own view).
import { useEffect, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import { getSheetSchema } from '../net/api.ts';
import type { Ask } from '../lib/attack.ts';
import { phoneSheetCommand, phoneSheetInitial, playerSheetSchema, storedKeyOptions } from '../lib/phoneSheet.ts';
import { storedSheet } from '../lib/sheetForm.ts';
import { fieldsOf, labelOf, refusalInWords, withSettingCaps, type FormValue, type JsonSchema } from '../lib/schemaForm.ts';
import { sentenceOf } from '../lib/words.ts';
import { carriedWords } from '../lib/osrCarried.ts';
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';
import { SchemaForm } from './SchemaForm.tsx';
import type { Send } from './types.ts';

/** `labels`: each sheet field's label as the forms show it (its schema title), for the summary lines. */
type Choices = { readonly [field: string]: { readonly [option: string]: string } };
/** `choices`: a choice field's options in words (its schema's labels), so a stored code never shows as it is. */
type Loaded = { readonly schema: JsonSchema; readonly kept: readonly string[]; readonly stored: { readonly [k: string]: Json }; readonly labels: { readonly [k: string]: string }; readonly choices: Choices } | { readonly problem: string };

export function PhoneSheet({ world, characterId, send, ask }: { world: World; characterId: string; send: Send; ask: Ask }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // Asked again after each save the server acknowledged, so the form shows what was stored.
  const [round, setRound] = useState(0);
  const name = world.characters[characterId]?.name ?? 'your character';
  useEffect(() => {
    let live = true;
    void Promise.all([getSheetSchema(world.rulesetId), ask('character.sheet', { characterId })]).then(([schema, answer]) => {
      if (!live) return;
      if (!schema.ok) return setLoaded({ problem: `The sheet could not be loaded: ${schema.message}. Reload the page to try again.` });
      if (!answer.ok) return setLoaded({ problem: sentenceOf({ code: 'RULE_ERROR', ruleCode: answer.error.code, message: answer.error.message }, {}) });
      const r = answer.result as { sheet: { [k: string]: Json }; playerEditable: string[] };
      const fields = fieldsOf(schema.value.schema);
      setLoaded({
        schema: playerSheetSchema(withSettingCaps(schema.value.schema, world.settings), r.playerEditable),
        kept: Object.keys((schema.value.schema['properties'] ?? {}) as object).filter((k) => !r.playerEditable.includes(k)),
        stored: r.sheet,
        labels: Object.fromEntries(fields.map((f) => [f.key, f.label])),
        choices: Object.fromEntries(fields.flatMap((f) => (f.kind === 'enum' && f.labels !== undefined ? [[f.key, f.labels]] : []))),
      });
    });
    return () => {
      live = false;
    };
  }, [world.rulesetId, characterId, round]);
  if (loaded === null) return <p class="small muted" role="status">Opening the sheet…</p>;
  if ('problem' in loaded) return <p class="error small" role="alert">{loaded.problem}</p>;
  const keys = Object.keys((loaded.schema['properties'] ?? {}) as object);
  const purse = capabilitiesOf(world.rulesetId).coinPurse;
  if (keys.length === 0) return <p class="small muted" data-testid="phone-sheet-none">Your GM keeps every number on this sheet; ask them for changes.</p>;
  return (
    <div data-testid="phone-sheet">
      <p class="small muted">You may change: {keys.map((k) => loaded.labels[k] ?? labelOf(k)).join(', ')}.</p>
      <KeptByGm kept={loaded.kept} stored={loaded.stored} labels={loaded.labels} choices={loaded.choices} />
      {/* A purse that weighs (OSR): the loads and the coins against STR, as the table now holds them (001 "Treasure"). */}
      {purse !== undefined ? (
        <>
          <p class="small" data-testid="phone-sheet-carried">
            {carriedWords(world.characters[characterId]?.stats)}
          </p>
          <ChangeCoins command={purse} characterId={characterId} send={send} done={() => setRound((n) => n + 1)} />
        </>
      ) : null}
      <SchemaForm
        key={`${characterId}:${round}`}
        schema={loaded.schema}
        idPrefix="my-sheet"
        initial={phoneSheetInitial(loaded.schema, loaded.stored)}
        useOptions={(ref) => storedKeyOptions(ownSheet(world, characterId, loaded.stored), ref)}
        submitLabel={`Save ${name}'s sheet`}
        onInvalid={() => setSaved(null)}
        onSubmit={async (payload) => {
          setSaved(null);
          const r = await send(phoneSheetCommand(characterId, payload as { [k: string]: Json }));
          if (!r.ok) return refusalInWords(fieldsOf(loaded.schema), payload as { readonly [k: string]: FormValue }, r.rejection, (message) => sentenceOf({ ...r.rejection, message }, {}), 'sheet');
          setSaved(`Saved ${name}'s sheet.`);
          setRound((n) => n + 1);
          return null;
        }}
      />
      <p role="status" class="small" data-testid="phone-sheet-saved">
        {saved ?? ''}
      </p>
    </div>
  );
}

/** The player's own sheet as their view holds it (the sheet query leaves out stored-only parts such as a teams sheet's items). */
function ownSheet(world: World, characterId: string, fallback: { readonly [k: string]: Json }): { readonly [k: string]: Json } {
  const ch = world.characters[characterId];
  return ch === undefined ? fallback : { ...fallback, ...storedSheet(world, ch) };
}

/**
 * The rest of the sheet, read-only (ADR 53): a player sees what the GM keeps and why they cannot type it (001 moves HP
 * by damage, healing and rest, and ability scores by injuries and corruption; those come through the GM or a request).
 */
function KeptByGm({ kept, stored, labels, choices }: { kept: readonly string[]; stored: { readonly [k: string]: Json }; labels: { readonly [k: string]: string }; choices: Choices }) {
  const shown = keptValues(kept, stored, choices);
  if (shown.length === 0) return null;
  return (
    <p class="small" data-testid="phone-sheet-kept">
      Kept by the GM and the rules (damage, healing, rest, injuries): {shown.map(([k, v]) => `${labels[k] ?? labelOf(k)}: ${v}`).join(', ')}.
    </p>
  );
}

// The record's own bookkeeping, not numbers a player reads (review 13 #15: "Kind pc" on the phone).
const BOOKKEEPING = new Set(['id', 'characterId', 'name', 'kind']);

/** The plain values (numbers, words, a ticked box) of the fields a player does not change, in the sheet's order; a choice in its words. */
export function keptValues(kept: readonly string[], stored: { readonly [k: string]: Json }, choices: Choices = {}): [string, string][] {
  return kept.flatMap((k): [string, string][] => {
    if (BOOKKEEPING.has(k)) return [];
    const v = stored[k];
    if (typeof v === 'number') return [[k, String(v)]];
    if (typeof v === 'string' && v !== '') return [[k, choices[k]?.[v] ?? v.replace(/-/g, ' ')]];
    return v === true ? [[k, 'yes']] : [];
  });
}

const COINS = [
  ['gp', 'gold (gp)'],
  ['sp', 'silver (sp)'],
  ['cp', 'copper (cp)'],
] as const;

/** 001 "Treasure": the player changes coins in their own purse (10 cp = 1 sp, 10 sp = 1 gp); the server says why not, in words. */
function ChangeCoins({ command, characterId, send, done }: { command: string; characterId: string; send: Send; done: () => void }) {
  const [amount, setAmount] = useState('10');
  const [from, setFrom] = useState('gp');
  const [to, setTo] = useState('sp');
  const [said, setSaid] = useState<string | null>(null);
  return (
    <form
      class="row small"
      data-testid="phone-coins"
      aria-label="Change coins"
      onSubmit={async (ev) => {
        ev.preventDefault();
        const n = Number(amount);
        if (!Number.isInteger(n) || n < 1) return setSaid('How many coins must be a whole number of 1 or more.');
        const r = await send({ type: command, characterId, amount: n, from, to });
        setSaid(r.ok ? null : sentenceOf(r.rejection, {}));
        if (r.ok) done();
      }}
    >
      <label>
        Change <input type="number" min={1} value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} aria-label="How many coins" />
      </label>
      <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)} aria-label="From">
        {COINS.map(([v, l]) => <option value={v}>{l}</option>)}
      </select>
      <select value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)} aria-label="Into">
        {COINS.map(([v, l]) => <option value={v}>{l}</option>)}
      </select>
      <button type="submit">Change coins</button>
      <span role="status" class="error">{said ?? ''}</span>
    </form>
  );
}
