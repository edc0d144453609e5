// The GM's skill checks, in a fight or out of one (review 11: the 36th Way's checks had a command and no
// control): one form per PC from the ruleset's checks query (named by its capabilities), with the odds
// before the roll and the result in the log. GM only, in its own chunk.
import { useEffect, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import { ActionFormView } from './Actions.tsx';
import type { TurnAction } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import type { Send } from './types.ts';

type Check = TurnAction & { readonly name: string };

/** The checks answer, with flags and texts read as none where missing. */
function readChecks(result: Json): Check[] {
  const list = (result as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(list)) return [];
  return (list as Check[]).map((a) => ({ ...a, flags: a.flags ?? [], texts: a.texts ?? [] }));
}

export function SkillChecks({ world, send, ask, query }: { world: World; send: Send; ask: Ask; query: string }) {
  const [list, setList] = useState<readonly Check[]>([]);
  const [who, setWho] = useState('');
  // Closed, the panel asks nothing and builds no form: a hidden form would answer for the turn's own action form.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    let live = true;
    void ask(query, {}).then((a) => {
      if (live && a.ok) setList(readChecks(a.result));
    });
    return () => {
      live = false;
    };
  }, [query, world, open]);
  const idOf = (a: Check) => String(a.fixed['characterId']);
  const picked = list.find((a) => idOf(a) === who) ?? list[0];
  return (
    <details class="panel" data-testid="skill-checks" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Skill checks</summary>
      {!open ? null : picked === undefined ? (
        <p class="hint">No character can make a check yet.</p>
      ) : (
        <>
          <div class="field">
            <label for="check-who">Who makes it</label>
            <select id="check-who" value={idOf(picked)} onChange={(e) => setWho(e.currentTarget.value)}>
              {list.map((a) => (
                <option key={idOf(a)} value={idOf(a)}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <ActionFormView key={idOf(picked)} action={picked} world={world} send={send} ask={ask} />
        </>
      )}
    </details>
  );
}
