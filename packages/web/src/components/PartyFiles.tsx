// Characters as files (issue 20): export one of the table's characters, or
// import one made at another table of the same rules. Its own chunk, on the
// GM screen only.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { CharacterForms } from './CharacterForms.tsx';
import { characterExport, importCommand, MAX_CHARACTER_FILE_BYTES, parseCharacterFile, sheetImportCommand } from '../lib/characterFile.ts';
import { sentenceOf } from '../lib/words.ts';
import { refusalInWords } from '../lib/schemaForm.ts';
import type { Send } from './types.ts';

function download(name: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function PartyFiles({ world, send }: { world: World; send: Send }) {
  const characters = Object.values(world.characters);
  const [chosen, setChosen] = useState('');
  const [note, setNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const id = characters.some((c) => c.id === chosen) ? chosen : (characters[0]?.id ?? '');

  const importFile = async (text: string) => {
    const parsed = parseCharacterFile(text, world.rulesetId);
    if (!parsed.ok) return setNote({ kind: 'error', text: parsed.errors.join(' ') });
    // The character and its sheet in one batch (ADR 73): one change, one Undo, no waiting for the new id.
    const withSheet = sheetImportCommand(world, parsed.file, '') !== null;
    const r = await send(importCommand(world, parsed.file));
    if (!r.ok) return setNote({ kind: 'error', text: refusalInWords([], {}, r.rejection, (message) => sentenceOf({ ...r.rejection, message }, {}), withSheet ? 'sheet' : undefined) });
    setNote({ kind: 'ok', text: `${parsed.file.character.name} joined the table${withSheet ? ' with their sheet' : ''}. Seat them from the invite panel.` });
  };

  return (
    <section class="panel area-party" aria-labelledby="party-files-h" data-testid="party-files">
      <h2 id="party-files-h">Party: sheets and files</h2>
      <CharacterForms world={world} send={send} />
      <div class="row small">
        {characters.length > 0 ? (
          <>
            <span class="inline-field">
              <label for="party-export-who">Character</label>
              <select id="party-export-who" value={id} onChange={(e) => setChosen(e.currentTarget.value)}>
                {characters.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </span>
            <button
              type="button"
              onClick={() => {
                const file = characterExport(world, id);
                if (file !== null) download(`${file.character.name.replace(/[^\w-]+/g, '_')}.character.json`, JSON.stringify(file, null, 2));
              }}
            >
              Export character
            </button>
          </>
        ) : (
          <span class="muted">No characters yet.</span>
        )}
        <span class="inline-field">
          <label for="party-import">Import a character file</label>
          <input
            id="party-import"
            type="file"
            accept="application/json,.json"
            onChange={async (e) => {
              const input = e.currentTarget;
              const file = input.files?.[0];
              input.value = '';
              if (file === undefined) return;
              if (file.size > MAX_CHARACTER_FILE_BYTES) return setNote({ kind: 'error', text: 'That file is too large to be a character file.' });
              await importFile(await file.text());
            }}
          />
        </span>
      </div>
      <p role={note?.kind === 'error' ? 'alert' : 'status'} class={note?.kind === 'error' ? 'error small' : 'small'} data-testid="party-files-note">
        {note?.text ?? ''}
      </p>
    </section>
  );
}
