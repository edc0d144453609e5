// The GM's rule forms that belong to a character or the party, not to a turn
// (issue 20: OSR's resilience, corruptions, injuries, chases, treasure and loot
// had engine commands and no control). Where the ruleset lists the `tools` panel,
// its `<id>.toolActions` query answers with TurnActions, so each opens the one action form, odds included.
// GM screen only, loaded as its own chunk.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { readActions, type ActionsAnswer } from '../lib/actions.ts';
import { useShown } from './shown.ts';
import type { Ask } from '../lib/attack.ts';
import { ActionFormView, NotNow } from './Actions.tsx';
import type { Send } from './types.ts';

/**
 * The tools query's answer for these arguments, asked again as the table changes (once per version: TableClient.query
 * shares it), or only when one of `reads` changes, where the caller knows what the list reads (ADR 98).
 */
function useTools(world: World, ask: Ask, args: { characterId?: string }, reads: readonly unknown[] = [world]): ActionsAnswer | string | null {
  // The ruleset's id names its namespace, as `<id>.status` does; no id is compared (capabilities decide).
  const query = `${world.rulesetId}.toolActions`;
  const [answer, setAnswer] = useState<ActionsAnswer | string | null>(null);
  const key = JSON.stringify(args);
  useEffect(() => {
    let live = true;
    void ask(query, args).then((a) => {
      if (live) setAnswer(a.ok ? (readActions(a.result) ?? 'The tools could not be read.') : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [key, ...reads]);
  return answer;
}

/** One `<id>.toolActions` answer as buttons, the open form and what may not be done now (the Episode bar's GM tools reuse it). */
export function ToolList({ world, send, ask, args, label, reads }: { world: World; send: Send; ask: Ask; args: { characterId?: string }; label: string; reads?: readonly unknown[] }) {
  const answer = useTools(world, ask, args, reads);
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

/** A character picked by name (PCs first) and that character's tools: this panel's and the Episode bar's. */
export function CharacterTools({ world, send, ask, selectId, reads }: { world: World; send: Send; ask: Ask; selectId: string; reads?: readonly unknown[] }) {
  const people = Object.values(world.characters).sort((x, y) => (x.kind === 'pc' ? 0 : 1) - (y.kind === 'pc' ? 0 : 1) || x.name.localeCompare(y.name));
  const [who, setWho] = useState<string>('');
  const picked = people.some((c) => c.id === who) ? who : (people[0]?.id ?? '');
  if (people.length === 0) return <p class="small muted">No character yet: invite a player or add a foe.</p>;
  return (
    <>
      <div class="field">
        <label for={selectId}>Character</label>
        <select id={selectId} value={picked} onChange={(e) => setWho(e.currentTarget.value)}>
          {people.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.kind === 'pc' ? '' : ' (foe or NPC)'}
            </option>
          ))}
        </select>
      </div>
      <ToolList key={picked} world={world} send={send} ask={ask} args={{ characterId: picked }} label={`Rules for ${world.characters[picked]?.name ?? 'the character'}`} {...(reads !== undefined ? { reads } : {})} />
    </>
  );
}

/** The party's tools (chase, treasure, loot) and one character's (picked by name). */
export function RuleTools({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  // Shut unless the GM left it open on this device (ADR 86); shut, it asks nothing.
  const [shown, setShown] = useShown('rule-tools');
  return (
    <section class="panel area-tools" aria-labelledby="rule-tools-title" data-testid="rule-tools">
      <h2 id="rule-tools-title">Party and characters</h2>
      {/* Shut, the panel asks nothing; open, its two queries are asked once per table version (TableClient.query shares them). */}
      <details data-testid="rule-tools-body" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
        <summary>Chases, treasure, and each character's resilience, corruptions and injuries</summary>
        {!shown ? null : (
            <>
              <h3 class="small">The party</h3>
              <ToolList world={world} send={send} ask={ask} args={{}} label="The party's rules" />
              <h3 class="small">A character</h3>
              <CharacterTools world={world} send={send} ask={ask} selectId="rule-tools-who" />
            </>
        )}
      </details>
    </section>
  );
}
