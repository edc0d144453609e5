// The GM's own settings on this device: developer tools stay out of a new
// GM's way (review 7: 93 raw command ids on every GM page). "Any command"
// shows only once its toggle is on; the choice is the person's, not the
// table's, so it lives in this browser (ADR 57).
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import type { Ask } from '../lib/attack.ts';
import { lazyPanel } from './LazyPanels.tsx';
import type { Send } from './types.ts';
import { RenameTable } from './TableKeeping.tsx';

// The "any command" panel: a form for every declared command, built from the server's catalogue (ADR 13); GM only, so declared here.
const CommandsPanel = lazyPanel(() => import('./Commands.tsx').then((m) => m.CommandsPanel), 'panel area-commands');

// The table's rules (ADR 99): GM only, and fetched only once the GM opens them.
const TableRulesPanel = lazyPanel(() => import('./TableRules.tsx').then((m) => m.TableRulesPanel), 'table-rules-loading');

const KEY = 'tk.developerTools';

function readFlag(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export function GmSettings({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  const [dev, setDev] = useState(readFlag);
  const [rules, setRules] = useState(false);
  const toggle = (on: boolean) => {
    setDev(on);
    try {
      if (on) localStorage.setItem(KEY, 'on');
      else localStorage.removeItem(KEY);
    } catch {
      // private mode: the choice lasts for this page only
    }
  };
  return (
    <>
      <details class="panel area-commands" data-testid="gm-settings">
        <summary>Settings</summary>
        <RenameTable world={world} send={send} />
        <details onToggle={(e) => setRules(e.currentTarget.open)}>
          <summary>Table rules</summary>
          {rules ? <TableRulesPanel world={world} send={send} /> : null}
        </details>
        <label class="row small" style={{ fontWeight: 400 }}>
          <input type="checkbox" checked={dev} onChange={(e) => toggle(e.currentTarget.checked)} style={{ minHeight: 'auto' }} /> Developer tools: send any command or query by its id (off by default)
        </label>
      </details>
      {dev ? <CommandsPanel world={world} send={send} ask={ask} /> : null}
    </>
  );
}
