// Skill checks, in a fight or out of one (review 11: the 36th Way's checks had a command and no control;
// review 13: OSR's Hide and the senses with no fight running): the forms of the ruleset's checks query
// (named by its capabilities), one or more per PC, with the odds before the roll and the result in the log.
// The GM's screen, and an OSR phone from its light panel's chunk; in a chunk of its own.
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
  const [which, setWhich] = useState('');
  const idOf = (a: Check) => String(a.fixed['characterId']);
  const first = list.find((a) => idOf(a) === who) ?? list[0];
  // A ruleset may list several checks per PC (OSR: Hide, Listen, Search, Track, an ability check).
  const theirs = first === undefined ? [] : list.filter((a) => idOf(a) === idOf(first));
  // The check kind stays picked when the GM switches who makes it (ids read `hide:<character>`).
  const kindOf = (a: Check) => a.id.split(':')[0]!;
  const picked = theirs.find((a) => kindOf(a) === which) ?? theirs[0];
  const people = list.filter((a, i) => list.findIndex((b) => idOf(b) === idOf(a)) === i);
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
              {people.map((a) => (
                <option key={idOf(a)} value={idOf(a)}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          {theirs.length > 1 ? (
            <div class="field">
              <label for="check-which">Which check</label>
              <select id="check-which" value={kindOf(picked)} onChange={(e) => setWhich(e.currentTarget.value)}>
                {theirs.map((a) => (
                  <option key={a.id} value={kindOf(a)}>
                    {a.label}
                    {a.allowed ? '' : ' (not now)'}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <ActionFormView key={picked.id} action={picked} world={world} send={send} ask={ask} />
        </>
      )}
    </details>
  );
}
