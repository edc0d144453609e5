// Characters as files (issue 20): export one of the table's characters, or
// import one made at another table of the same rules. Its own chunk, on the
// GM screen only.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { CharacterForms } from './CharacterForms.tsx';
import { characterExport, exportGroups, freeName, importCommand, MAX_CHARACTER_FILE_BYTES, namesake, parseCharacterFile, replaceCommand, sheetImportCommand, type CharacterFile } from '../lib/characterFile.ts';
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
  const groups = exportGroups(world);
  const listed = groups.flatMap((g) => g.options);
  const [chosen, setChosen] = useState('');
  const [note, setNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  // A file whose name is already at the table waits for the GM's answer: replace, add under a new name, or cancel.
  const [clash, setClash] = useState<{ file: CharacterFile; id: string; name: string } | null>(null);
  const id = listed.some((c) => c.id === chosen) ? chosen : (listed[0]?.id ?? '');

  const refused = (r: Extract<Awaited<ReturnType<Send>>, { ok: false }>, withSheet: boolean) =>
    setNote({ kind: 'error', text: refusalInWords([], {}, r.rejection, (message) => sentenceOf({ ...r.rejection, message }, {}), withSheet ? 'sheet' : undefined) });

  const add = async (file: CharacterFile, name: string) => {
    // The character and its sheet in one batch (ADR 73): one change, one Undo, no waiting for the new id.
    const withSheet = sheetImportCommand(world, file, '') !== null;
    const r = await send(importCommand(world, file, name));
    if (!r.ok) return refused(r, withSheet);
    setNote({ kind: 'ok', text: `${name} joined the table${withSheet ? ' with their sheet' : ''}. Seat them from the invite panel.` });
  };

  const replace = async (file: CharacterFile, characterId: string, name: string) => {
    const withSheet = sheetImportCommand(world, file, '') !== null;
    const r = await send(replaceCommand(world, file, characterId));
    if (!r.ok) return refused(r, withSheet);
    setNote({ kind: 'ok', text: `${name}'s sheet now holds the file's numbers; their seat and place stay as they were.` });
  };

  const importFile = async (text: string) => {
    setClash(null);
    const parsed = parseCharacterFile(text, world.rulesetId);
    if (!parsed.ok) return setNote({ kind: 'error', text: parsed.errors.join(' ') });
    const twin = namesake(world, parsed.file);
    if (twin !== null) {
      setNote(null);
      return setClash({ file: parsed.file, id: twin.id, name: twin.name });
    }
    await add(parsed.file, parsed.file.character.name);
  };

  return (
    <section class="panel area-party" aria-labelledby="party-files-h" data-testid="party-files">
      <h2 id="party-files-h">Party: sheets and files</h2>
      <CharacterForms world={world} send={send} />
      <div class="row small">
        {listed.length > 0 ? (
          <>
            <span class="inline-field">
              <label for="party-export-who">Character</label>
              <select id="party-export-who" value={id} onChange={(e) => setChosen(e.currentTarget.value)}>
                {groups.map((g) => (
                  <optgroup key={g.label} label={g.label}>
                    {g.options.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </optgroup>
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
      {clash !== null ? (
        <div class="row small" role="group" aria-labelledby="party-clash-q" data-testid="party-clash">
          <span id="party-clash-q">
            {clash.name} is already at the table. Replace {clash.name}'s sheet with the file's, or add the file's character as "{freeName(world, clash.file.character.name)}"?
          </span>
          <button
            type="button"
            onClick={() => {
              const c = clash;
              setClash(null);
              void replace(c.file, c.id, c.name);
            }}
          >
            Replace {clash.name}
          </button>
          <button
            type="button"
            onClick={() => {
              const c = clash;
              setClash(null);
              void add(c.file, freeName(world, c.file.character.name));
            }}
          >
            Add as "{freeName(world, clash.file.character.name)}"
          </button>
          <button
            type="button"
            onClick={() => {
              setClash(null);
              setNote({ kind: 'ok', text: 'Import cancelled: nothing was added.' });
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}
      <p role={note?.kind === 'error' ? 'alert' : 'status'} class={note?.kind === 'error' ? 'error small' : 'small'} data-testid="party-files-note">
        {note?.text ?? ''}
      </p>
    </section>
  );
}
