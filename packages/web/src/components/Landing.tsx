// No capability in the URL: create a table (GM), or use the dice tray alone.
import { useEffect, useState } from 'preact/hooks';
import type { RulesetSummary } from '@tablekeeper/protocol';
import { createTable, joinWithCode, listRulesets } from '../net/api.ts';
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
          <p class="small muted">Players join with the link or QR code from the GM screen's Invite panel, or by typing its short join code below; a player link opens their own view.</p>
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
        <JoinByCode />
        <RecentTables />
        <DiceTray />
      </main>
    </>
  );
}

/** A player whose phone cannot scan the QR code types the short code the GM reads out (ADR 44). */
function JoinByCode() {
  const [msg, setMsg] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="join-title">
      <h2 id="join-title">Join a table</h2>
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
          if (code === '') return setMsg('Type the code the GM gives you, like ABCD-EFGH.');
          setBusy(true);
          const r = await joinWithCode(code);
          setBusy(false);
          if (!r.ok) return setMsg(r.kind === 'NETWORK' ? 'The table server cannot be reached; try again.' : `${r.message[0]!.toUpperCase()}${r.message.slice(1)}.`);
          setMsg(null);
          location.hash = `seat=${r.value.token}`;
        }}
      >
        <label for="join-code">Join code</label>
        <input id="join-code" name="code" class="grow" maxLength={12} autocomplete="off" autocapitalize="characters" spellcheck={false} placeholder="ABCD-EFGH" />
        <button type="submit" disabled={busy}>
          Join
        </button>
      </form>
      {msg ? (
        <p class="error small" role="alert" data-testid="join-error">
          {msg}
        </p>
      ) : null}
    </section>
  );
}
