// A hit waiting on a PC's Armor choice (ADR 50): what each answer does, from
// the engine's daggerheart.hitChoice, and one button per answer. The player
// sees it on their phone; the GM sees every waiting hit and may answer for a
// PC without a phone.
import { useEffect, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import type { PendingHit } from '@tablekeeper/rulesets/browser';
import type { QueryAnswer } from '../../net/codec.ts';
import type { Send } from '../types.ts';

type Ask = (name: string, args: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

interface HitOption {
  readonly markArmor: boolean;
  readonly allowed: boolean;
  readonly text: string;
  readonly reason?: string;
}
interface HitAnswer {
  readonly summary: string;
  readonly options: readonly HitOption[];
}

export function HitChoice({ world, hit, send, ask }: { world: World; hit: PendingHit; send: Send; ask: Ask | undefined }) {
  const [answer, setAnswer] = useState<HitAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = world.characters[hit.characterId]?.name ?? 'Someone';
  // Asked again when the PC's Armor changes (another hit answered first may spend the last slot).
  const armor = String(world.characters[hit.characterId]?.stats['armorMarked'] ?? 0);
  useEffect(() => {
    let live = true;
    if (!ask) return;
    void ask('daggerheart.hitChoice', { hitId: hit.id }).then((a) => {
      if (!live) return;
      setAnswer(a.ok ? (a.result as unknown as HitAnswer) : null);
      setError(a.ok ? null : a.error.message);
    });
    return () => {
      live = false;
    };
  }, [hit.id, armor]);
  return (
    <section class="panel dh-hit" role="group" aria-label={`${name} is hit`} data-testid="hit-choice">
      <h2>{name} is hit</h2>
      <p data-testid="hit-summary">{answer ? answer.summary : error ?? `${hit.amount} damage: working out what Armor changes…`}</p>
      <div class="row">
        {(answer?.options ?? []).map((o) => (
          <button
            key={String(o.markArmor)}
            class={o.markArmor ? 'primary' : ''}
            disabled={!o.allowed}
            title={o.reason}
            onClick={() => void send({ type: 'daggerheart.answerHit', hitId: hit.id, markArmor: o.markArmor }).then((r) => !r.ok && setError(r.rejection.message))}
          >
            {o.text}
          </button>
        ))}
      </div>
    </section>
  );
}
