// No capability in the URL: create a table (GM), or use the dice tray alone.
import { useEffect, useState } from 'preact/hooks';
import type { RulesetSummary } from '@tablekeeper/protocol';
import { createTable, listRulesets } from '../net/api.ts';
import { DiceTray } from './DiceTray.tsx';
import { RecentTables } from './Recent.tsx';

export function Landing() {
  const [rulesets, setRulesets] = useState<RulesetSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void listRulesets().then((r) => (r.ok ? setRulesets(r.value) : setError(`No table server here (${r.message}); the dice tray still works.`)));
  }, []);
  return (
    <>
      <header class="topbar">
        <span class="title">Tablekeeper</span>
        <span class="muted small">Keeps your table's time: dice with exact odds, turns, countdowns.</span>
      </header>
      <main class="landing" id="main">
        <section class="panel" aria-labelledby="new-title">
          <h2 id="new-title">New table</h2>
          <p class="small muted">Players join with the link you send them from the GM screen; a player link opens their own view.</p>
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              setBusy(true);
              const r = await createTable(String(f.get('name')).trim(), String(f.get('ruleset')));
              setBusy(false);
              if (!r.ok) return setError(r.message);
              location.hash = `gm=${r.value.gmToken}`;
            }}
          >
            <div class="field">
              <label for="table-name-input">Table name</label>
              <input id="table-name-input" name="name" required maxLength={80} defaultValue="Friday game" />
            </div>
            <div class="field">
              <label for="ruleset">Rules</label>
              <select id="ruleset" name="ruleset" required disabled={!rulesets || rulesets.length === 0}>
                {(rulesets ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {typeof r['name'] === 'string' ? r['name'] : r.id}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="primary" disabled={busy || !rulesets || rulesets.length === 0}>
              Create table
            </button>
          </form>
          {error ? (
            <p class="error small" role="alert" style={{ marginTop: '8px' }}>
              {error}
            </p>
          ) : null}
        </section>
        <RecentTables />
        <DiceTray />
      </main>
    </>
  );
}
