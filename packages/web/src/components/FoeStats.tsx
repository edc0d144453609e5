// The GM's choice of what players read of foes' stats (ADR 33, issue 15):
// none (the default), their defences (AC, PD, MD, Evasion, Difficulty), or
// every number. GM screen only, so the player bundle does not carry it.
import { foeRevealOf, type World } from '@tablekeeper/engine';
import type { Send } from './types.ts';

const CHOICES = [
  ['none', 'no numbers'],
  ['defences', 'defences'],
  ['all', 'every number'],
] as const;

export function FoeStatsSetting({ world, send }: { world: World; send: Send }) {
  const now = foeRevealOf(world);
  return (
    <div class="row small foe-stats" data-testid="foe-stats">
      <label for="foe-stats" title="Defences: AC, PD, MD, Evasion, Difficulty. Every number: HP too.">Foes show players</label>
      <select id="foe-stats" value={now} onChange={(e) => void send({ type: 'foes.reveal', reveal: e.currentTarget.value })}>
        {CHOICES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
