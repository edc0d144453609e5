// Shared pieces of the turn-order strategies: eligibility and "tiers" (ordered
// groups where either the order is fixed or someone chooses among the group).
import { own } from '../../core/own.js';
import type { Json, Result } from '../../core/types.js';
import { errR, okR } from '../state.js';
import type { Chooser, Combatant, EncounterState, Next, SequencerView, SurpriseParams } from '../types.js';

/** May take a turn now: present, not yet acted this round, able, and in the surprise round if one is running. */
export function eligible(view: SequencerView, id: string): boolean {
  const enc = view.enc;
  if (own(enc.combatants, id) === undefined) return false;
  if (enc.acted.includes(id)) return false;
  if (enc.surpriseActors !== null && !enc.surpriseActors.includes(id)) return false;
  return view.canAct(id);
}

export interface Tier {
  /** Members in their fixed order (used directly when `chooser` is null). */
  readonly members: readonly string[];
  /** Who chooses the order inside the tier; null = fixed order. */
  readonly chooser: Chooser | null;
  readonly label: string;
}

/** The first tier with someone eligible decides: fixed order yields an actor, a chooser yields a decision. */
export function nextFromTiers(view: SequencerView, tiers: readonly Tier[]): Next {
  for (const tier of tiers) {
    const options = tier.members.filter((id) => eligible(view, id));
    if (options.length === 0) continue;
    if (tier.chooser === null || options.length === 1) return { kind: 'actor', id: options[0]! };
    return {
      kind: 'decision',
      decision: {
        prompt: `${tier.label}: choose who acts next`,
        chooser: tier.chooser,
        options,
        default: tier.chooser.kind === 'gm' ? options[0]! : null,
      },
    };
  }
  return { kind: 'roundOver' };
}

/** Surprise round actors by default: the whole surprising side plus anyone who cannot be surprised. */
export function sideSurprise(enc: EncounterState, params: SurpriseParams): Result<readonly string[]> {
  const list = enc.roster.map((id) => own(enc.combatants, id)).filter((c): c is Combatant => c !== undefined);
  if (!list.some((c) => c.side === params.side)) return errR('UNKNOWN_SIDE', `no combatant is on side "${params.side}"`, 'surprise.side');
  return okR(list.filter((c) => c.side === params.side || c.unsurprisable).map((c) => c.id));
}

export function num(j: Json | undefined): number | null {
  return typeof j === 'number' && Number.isFinite(j) ? j : null;
}

export function field(j: Json | undefined, key: string): Json | undefined {
  return j !== null && typeof j === 'object' && !Array.isArray(j) ? j[key] : undefined;
}

export function byJoin(enc: EncounterState) {
  return (a: string, b: string): number => (own(enc.combatants, a)?.joined ?? 0) - (own(enc.combatants, b)?.joined ?? 0);
}

/** Rank in a tiered order: tier index, then member index for fixed tiers (chosen tiers share a rank). */
export function tierRank(tiers: readonly Tier[], id: string): number {
  for (let i = 0; i < tiers.length; i++) {
    const t = tiers[i]!;
    const j = t.members.indexOf(id);
    if (j >= 0) return i * 1000 + (t.chooser === null ? j : 0);
  }
  return Number.MAX_SAFE_INTEGER;
}
