// The GM's "any command" panel (ADR 13): the ruleset's whole catalogue from
// GET /api/rulesets/:id/commands, a filter, and a form generated from the
// chosen command's schema. Queries show their answer as JSON.
import type { Json, World } from '@tablekeeper/engine';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { listCommands } from '../net/api.ts';
import { combatantsOf, encounterOf } from '../lib/encounter.ts';
import { countdownsOf } from '../lib/countdowns.ts';
import type { Ask } from '../lib/attack.ts';
import { entriesFor, type CatalogEntry } from '../lib/schemaForm.ts';
import { SchemaForm, type RefOption } from './SchemaForm.tsx';
import type { Send } from './types.ts';

/** The choices for id fields from the GM's view of the table. */
export function optionsFrom(world: World, ref: string): RefOption[] {
  switch (ref) {
    case 'character':
      return Object.values(world.characters).map((c) => ({ value: c.id, label: c.name }));
    case 'seat':
      return Object.values(world.seats).map((s) => ({ value: s.id, label: s.name }));
    case 'combatant': {
      const enc = encounterOf(world);
      return enc === null ? [] : combatantsOf(enc).map((c) => ({ value: c.id, label: c.name }));
    }
    case 'countdown':
      return countdownsOf(world).countdowns.map((c) => ({ value: c.id, label: c.name }));
    default:
      return [];
  }
}

export function CommandsPanel({ world, send, ask }: { world: World; send: Send; ask?: Ask }) {
  const [entries, setEntries] = useState<CatalogEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void listCommands(world.rulesetId).then((r) => {
      if (!live) return;
      if (r.ok) setEntries(r.value);
      else setLoadError(r.message);
    });
    return () => {
      live = false;
    };
  }, [world.rulesetId]);
  // The hook SchemaForm calls for each id field: the table as the GM sees it now.
  const useOptions = useCallback((ref: string) => optionsFrom(world, ref), [world]);
  const shown = entries === null ? [] : entriesFor(entries, true, filter);
  const entry = entries?.find((e) => e.type === chosen) ?? null;

  async function submit(payload: { readonly [k: string]: unknown }): Promise<string | null> {
    if (entry === null) return null;
    if (entry.kind === 'query') {
      if (ask === undefined) return 'queries need a connection';
      const r = await ask(entry.type, payload as { readonly [k: string]: Json });
      setAnswer(r.ok ? JSON.stringify(r.result, null, 2) : null);
      return r.ok ? null : `${r.error.code}: ${r.error.message}`;
    }
    const r = await send({ type: entry.type, ...payload });
    setAnswer(null);
    return r.ok ? null : `${r.rejection.ruleCode ?? r.rejection.code}: ${r.rejection.message}${r.rejection.path ? ` (at ${r.rejection.path})` : ''}`;
  }

  return (
    <section class="panel area-commands" aria-labelledby="commands-h" data-testid="commands-panel">
      <h2 id="commands-h">Any command</h2>
      {loadError !== null ? <p role="alert">Could not load the commands: {loadError}</p> : null}
      {entries === null && loadError === null ? <p role="status">Loading the commands…</p> : null}
      {entries !== null ? (
        <>
          <span class="inline-field">
            <label for="commands-filter">Find</label>
            <input id="commands-filter" type="search" value={filter} placeholder="attack, hope, countdown…" onInput={(e) => setFilter(e.currentTarget.value)} />
          </span>
          <span class="inline-field">
            <label for="commands-choice">Command</label>
            <select
              id="commands-choice"
              value={chosen}
              onChange={(e) => {
                setChosen(e.currentTarget.value);
                setAnswer(null);
              }}
            >
              <option value="">choose… ({shown.length})</option>
              {shown.map((e) => (
                <option key={e.type} value={e.type}>
                  {/* Words first, from the catalogue's summary; the id after, for the developer who asked for it. */}
                  {e.summary} ({e.kind === 'query' ? 'query ' : ''}{e.type})
                </option>
              ))}
            </select>
          </span>
        </>
      ) : null}
      {entry !== null ? (
        <>
          <p class="hint" data-testid="commands-summary">
            {entry.summary}. {entry.who === 'gm' ? 'GM only.' : entry.who === 'own-character' ? 'GM, or the player of the character.' : entry.who === 'everyone' ? 'Everyone at the table, the display too.' : 'GM or any seated player.'}
          </p>
          <SchemaForm key={entry.type} schema={entry.schema} useOptions={useOptions} idPrefix="cmd" submitLabel={entry.kind === 'query' ? 'Ask' : 'Send'} onSubmit={submit} />
          {answer !== null ? <pre data-testid="commands-answer">{answer}</pre> : null}
        </>
      ) : null}
    </section>
  );
}
