// The GM's sheet editor on 36th Way and teams tables: a combatant's ruleset
// sheet as JSON, saved with the ruleset's own command (36th-way.sheet.set,
// teams.setSheet). The server checks every field; its refusal, with the
// field's path, shows under the text.
import { useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import { sheetChoices, sheetCommand, sheetRulesOf, sheetText } from '../lib/sheetEditor.ts';
import type { Send } from './types.ts';

export interface SheetEditorProps {
  readonly world: World;
  readonly enc: EncounterState | null;
  readonly send: Send;
}

export function SheetEditor({ world, enc, send }: SheetEditorProps) {
  const rules = sheetRulesOf(world);
  const [chosen, setChosen] = useState('');
  // The text belongs to one combatant; choosing another loads theirs afresh.
  const [draft, setDraft] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (rules === null) return null;
  const choices = sheetChoices(world, rules, enc);
  const c = choices.find((x) => x.id === chosen) ?? choices[0];
  if (c === undefined) return null;
  const text = draft !== null && draft.id === c.id ? draft.text : sheetText(world, rules, c);
  const save = async () => {
    const cmd = sheetCommand(rules, c.id, text);
    if (!cmd.ok) return setError(cmd.message);
    setError(null);
    setSaved(null);
    setBusy(true);
    const r = await send(cmd.command);
    setBusy(false);
    if (r.ok) {
      setDraft(null);
      return setSaved(`Saved ${c.name}'s sheet.`);
    }
    const where = r.rejection.path === undefined ? '' : ` (at ${r.rejection.path})`;
    setError(`${r.rejection.ruleCode ?? r.rejection.code}: ${r.rejection.message}${where}`);
  };
  return (
    <details class="sheet-editor small" data-testid="sheet-editor" style={{ borderTop: '1px solid var(--border)', marginTop: '8px', paddingTop: '4px' }}>
      <summary>Sheet</summary>
      <div class="field">
        <label for="sheet-who">Sheet of</label>
        <select
          id="sheet-who"
          value={c.id}
          onChange={(e) => {
            setChosen(e.currentTarget.value);
            setError(null);
            setSaved(null);
          }}
        >
          {choices.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
              {x.hasSheet ? '' : ' (no sheet yet)'}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="sheet-json">Sheet JSON ({rules === '36th-way' ? '36th-way.sheet.set' : 'teams.setSheet'})</label>
        <textarea
          id="sheet-json"
          rows={10}
          spellcheck={false}
          autocapitalize="off"
          style={{ width: '100%', fontFamily: 'monospace' }}
          value={text}
          aria-invalid={error !== null ? 'true' : 'false'}
          aria-describedby="sheet-error"
          onInput={(e) => {
            setDraft({ id: c.id, text: e.currentTarget.value });
            setError(null);
            setSaved(null);
          }}
        />
      </div>
      <div class="row">
        <button class="primary" disabled={busy} onClick={() => void save()}>
          Save sheet
        </button>
        <button
          onClick={() => {
            setDraft(null);
            setError(null);
          }}
        >
          Reload
        </button>
        <span class="small muted" role="status" data-testid="sheet-saved">
          {saved}
        </span>
      </div>
      <p id="sheet-error" role="alert" class="small" data-testid="sheet-error" style={{ color: 'var(--bad)' }}>
        {error}
      </p>
    </details>
  );
}
