// A decide() helper: events are applied to a scratch world as they are
// decided, so later steps (damage after a block, a death test after damage)
// read the state the earlier events leave. Kernel events whose reactions
// move the turn on (incapacitation, end of turn) are held to the end.
import type { EngineEvent, Json, Rng, RuleError, World } from '@tablekeeper/engine';
import { getEncounter, mintId, own } from '@tablekeeper/engine';
import { TEAMS_REDUCERS } from './reducers.js';
import { kit } from './rules.js';

export class Draft {
  world: World;
  readonly events: EngineEvent[] = [];
  private readonly tail: EngineEvent[] = [];
  constructor(world: World, readonly rng: Rng) {
    this.world = world;
  }
  emit(e: EngineEvent): void {
    this.events.push(e);
    const mine = TEAMS_REDUCERS[e.type];
    if (mine !== undefined) this.world = mine(this.world, e);
    const theirs = kit.module.reducers?.[e.type];
    if (theirs !== undefined) this.world = theirs(this.world, e);
  }
  /** Emitted after everything else (their kernel reactions start turns or recompute choices). */
  later(e: EngineEvent): void {
    this.tail.push(e);
  }
  /** Keep the combatant's "unable to act" flag in step with consciousness. */
  incapacitate(id: string, value: boolean): void {
    const enc = getEncounter(this.world);
    if (!enc.active || own(enc.combatants, id) === undefined) return;
    this.tail.push({ type: 'encounter.incapacitatedSet', id, value });
  }
  done(): EngineEvent[] {
    return [...this.events, ...this.tail];
  }
  /** A random id from the decide's id stream (ADR 18), recorded in the event it names; the scratch world counts it. */
  mint(prefix: string): string {
    const [id, next] = mintId(this.world, prefix, this.rng);
    this.world = next;
    return id;
  }
}

export type Step = RuleError | null;

export const asJson = (x: unknown): Json => x as Json;
