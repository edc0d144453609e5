// The GM's Episode rules on the Episode bar (issue 20: the engine knew them, no
// control sent them): the cold open, Freeplay's loose turn order and spotlight,
// a ruling on each improvised try, the GM's closing scene, and a character's
// Experience and resources. The ruleset's toolActions query answers them as
// turn actions, so the one action form renders each (odds before a Test).
// GM screen only, loaded as its own chunk.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import type { Ask } from '../lib/attack.ts';
import { ToolList } from './RuleTools.tsx';
import type { Send } from './types.ts';

export function EpisodeTools({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  const people = Object.values(world.characters).sort((x, y) => (x.kind === 'pc' ? 0 : 1) - (y.kind === 'pc' ? 0 : 1) || x.name.localeCompare(y.name));
  const [who, setWho] = useState('');
  // Shut, the character's list asks nothing (each open list asks again on every change of the table).
  const [shown, setShown] = useState(false);
  const picked = people.some((c) => c.id === who) ? who : (people[0]?.id ?? '');
  return (
    // A labelled group, not a heading: the bar's one heading is the Episode's own.
    <div class="stack episode-tools" role="group" aria-label="The GM's Episode rules" data-testid="episode-tools">
      <p class="small">
        <strong>The GM's Episode rules</strong>
      </p>
      <ToolList world={world} send={send} ask={ask} args={{}} label="The Episode's rules" />
      {people.length > 0 ? (
        <details data-testid="episode-character-tools" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
          <summary>A character's Experience and resources</summary>
          {!shown ? null : (
            <>
              <div class="field">
                <label for="episode-tools-who">Character</label>
                <select id="episode-tools-who" value={picked} onChange={(e) => setWho(e.currentTarget.value)}>
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
        </details>
      ) : null}
    </div>
  );
}
