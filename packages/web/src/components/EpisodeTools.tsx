// The GM's Episode rules on the Episode bar (issue 20: the engine knew them, no
// control sent them): the cold open, Freeplay's loose turn order and spotlight,
// a ruling on each improvised try, the GM's closing scene, and a character's
// Experience and resources. The ruleset's toolActions query answers them as
// turn actions, so the one action form renders each (odds before a Test).
// GM screen only, loaded as its own chunk.
import { useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { getKlepto } from '@tablekeeper/rulesets/browser';
import { encounterOf } from '../lib/encounter.ts';
import type { Ask } from '../lib/attack.ts';
import { CharacterTools, ToolList } from './RuleTools.tsx';
import type { Send } from './types.ts';

export function EpisodeTools({ world, send, ask }: { world: World; send: Send; ask: Ask }) {
  // Shut, the character's list asks nothing. Open, a list asks again only when what it reads changes (the
  // Episode's and the fight's state, the characters, the settings), not for a log line, the clock or a countdown (ADR 98).
  const [shown, setShown] = useState(false);
  const reads = [getKlepto(world), encounterOf(world), world.characters, world.settings];
  return (
    // A labelled group, not a heading: the bar's one heading is the Episode's own.
    <div class="stack episode-tools" role="group" aria-label="The GM's Episode rules" data-testid="episode-tools">
      <p class="small">
        <strong>The GM's Episode rules</strong>
      </p>
      <ToolList world={world} send={send} ask={ask} args={{}} label="The Episode's rules" reads={reads} />
      <details data-testid="episode-character-tools" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
        <summary>A character's Experience and resources</summary>
        {shown ? <CharacterTools world={world} send={send} ask={ask} selectId="episode-tools-who" reads={reads} /> : null}
      </details>
    </div>
  );
}
