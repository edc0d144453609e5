// The GM's rule forms that belong to a character or the party, not to a turn
// (issue 20: OSR's resilience, corruptions, injuries, chases, treasure and loot
// had engine commands and no control). Where the ruleset lists the `tools` panel,
// its `<id>.toolActions` query answers with TurnActions, so each opens the one action form, odds included.
// GM screen only, loaded as its own chunk.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { readActions, type ActionsAnswer } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import { ActionFormView, NotNow } from './Actions.tsx';
import type { Send } from './types.ts';

/** How long the table must stay unchanged before the tools are asked again. */
const SETTLE_MS = 150;

/** The tools query's answer for these arguments, asked again as the table changes. */
function useTools(world: World, ask: Ask, args: { characterId?: string }): ActionsAnswer | string | null {
  // The ruleset's id names its namespace, as `<id>.status` does; no id is compared (capabilities decide).
  const query = `${world.rulesetId}.toolActions`;
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const key = JSON.stringify(args);
  useEffect(() => {
    let live = true;
    // A burst of changes (a GM clicking fast) asks once, when it settles: each ask spends the GM socket's budgets.
    const timer = setTimeout(() => {
      void ask(query, args).then((a) => {
        if (live) setAnswer(a.ok ? (readActions(a.result) ?? 'The tools could not be read.') : a.error.message);
      });
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, world]);
  return answer;
}

function ToolList({ world, send, ask, args, label }: { world: World; send: Send; ask: Ask; args: { characterId?: string }; label: string }) {
  const answer = useTools(world, ask, args);
  const [open, setOpen] = useState<string | null>(null);
  if (answer === null) return <p class="small muted">Loading…</p>;
  if (typeof answer === 'string') return <p class="small error">{answer}</p>;
  const current = answer.actions.find((a) => a.id === open) ?? null;
  const blocked = answer.actions.filter((a) => !a.allowed);
  return (
    <div class="stack" data-testid={args.characterId === undefined ? 'party-tools' : 'character-tools'}>
      <div class="row" role="group" aria-label={label}>
        {answer.actions
          .filter((a) => a.allowed)
          .map((a) => (
            <button key={a.id} type="button" class="small" aria-pressed={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
              {a.label} <span class="muted">({a.cost})</span>
            </button>
          ))}
      </div>
      {current !== null ? <ActionFormView key={`${answer.combatantId}:${current.id}`} action={current} world={world} send={send} ask={ask} onClose={() => setOpen(null)} /> : null}
      <NotNow actions={blocked} />
    </div>
  );
}

/** The party's tools (chase, treasure, loot) and one character's (picked by name). */
export function RuleTools({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  const people = Object.values(world.characters).sort((x, y) => (x.kind === 'pc' ? 0 : 1) - (y.kind === 'pc' ? 0 : 1) || x.name.localeCompare(y.name));
  const [who, setWho] = useState<string>('');
  const [shown, setShown] = useState(false);
  const picked = people.some((c) => c.id === who) ? who : (people[0]?.id ?? '');
  return (
    <section class="panel area-tools" aria-labelledby="rule-tools-title" data-testid="rule-tools">
      <h2 id="rule-tools-title">Party and characters</h2>
      {/* Shut, the panel asks nothing: open, its two queries ran on every change of the table (a GM pressing N fast met the socket's rate limit). */}
      <details data-testid="rule-tools-body" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
        <summary>Chases, treasure, and each character's resilience, corruptions and injuries</summary>
        {!shown ? null : (
            <>
              <h3 class="small">The party</h3>
              <ToolList world={world} send={send} ask={ask} args={{}} label="The party's rules" />
              <h3 class="small">A character</h3>
              {people.length === 0 ? (
                <p class="small muted">No character yet: invite a player or add a foe.</p>
              ) : (
                <>
                  <div class="field">
                    <label for="rule-tools-who">Character</label>
                    <select id="rule-tools-who" value={picked} onChange={(e) => setWho(e.currentTarget.value)}>
                      {people.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                          {c.kind === 'pc' ? '' : ' (foe or NPC)'}
                        </option>
                      ))}
                    </select>
                  </div>
                  <ToolList key={picked} world={world} send={send} ask={ask} args={{ characterId: picked }} label={`Rules for ${world.characters[picked]?.name ?? 'the character'}`} />
                </>
              )}
            </>
        )}
      </details>
    </section>
  );
}
