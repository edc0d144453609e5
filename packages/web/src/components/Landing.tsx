// No capability in the URL: create a table (GM), or use the dice tray alone.
import { useEffect, useState } from 'preact/hooks';
import type { Json } from '@tablekeeper/engine';
import type { RulesetSummary } from '@tablekeeper/protocol';
import type { SettingDef } from '@tablekeeper/rulesets/browser';
import { createTable, joinWithCode, listRulesets } from '../net/api.ts';
import { DiceTray } from './DiceTray.tsx';
import { lazyPanel } from './LazyPanels.tsx';
import { RecentTables } from './Recent.tsx';

// The rules' controls load only when "Advanced: table rules" is opened: the landing page stays light (ADR 111).
const CreateRules = lazyPanel(() => import('./TableRules.tsx').then((m) => m.CreateRules), 'table-rules-loading');

const settingsOf = (r: RulesetSummary | undefined): readonly SettingDef[] => (Array.isArray(r?.['settings']) ? (r['settings'] as SettingDef[]) : []);

export function Landing() {
  const [rulesets, setRulesets] = useState<RulesetSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState('');
  // The table rules changed from their defaults for the picked ruleset; a new ruleset starts again from none.
  const [rules, setRules] = useState<{ [key: string]: Json }>({});
  const [advanced, setAdvanced] = useState(false);
  const picked = chosen !== '' ? chosen : (rulesets?.[0]?.id ?? '');
  const changed = Object.keys(rules).length;
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
            id="create-table"
            onSubmit={async (e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              setBusy(true);
              const r = await createTable(String(f.get('name')).trim(), String(f.get('ruleset')), rules);
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
              <select
                id="ruleset"
                name="ruleset"
                required
                disabled={!rulesets || rulesets.length === 0}
                value={picked}
                onChange={(e) => {
                  setChosen(e.currentTarget.value);
                  setRules({});
                }}
              >
                {(rulesets ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {typeof r['name'] === 'string' ? r['name'] : r.id}
                  </option>
                ))}
              </select>
            </div>
          </form>
          {/* Outside the form: a rule's number has a little form of its own, and forms do not nest. */}
          <details data-testid="create-rules" onToggle={(e) => setAdvanced(e.currentTarget.open)}>
            <summary>Advanced: table rules{changed > 0 ? ` (${changed} changed from the default${changed === 1 ? '' : 's'})` : ''}</summary>
            {advanced && picked !== '' ? <CreateRules key={picked} defs={settingsOf(rulesets?.find((r) => r.id === picked))} values={rules} onChange={setRules} /> : null}
          </details>
          <button type="submit" form="create-table" class="primary" disabled={busy || !rulesets || rulesets.length === 0}>
            Create table
          </button>
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
