// What players and spectators see of the Kleptonomicon's state (ADR 10,
// default-deny): every field listed, records rebuilt field by field.
import { asJson } from '@tablekeeper/engine/events';
import { canSee, FOES_ID, getEncounter, isFoeCharacter, own, showsFoeNumbers, type ProjectorReads, type Viewer, type World } from '@tablekeeper/engine';
import { type TurnMovement } from './movement.js';
import { getKlepto, KLEPTO_ID, type KleptoState } from './state.js';

/** A map of numbers as players read it: its numbers only. */
const numbers = (m: { readonly [k: string]: number }): { [k: string]: number } => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number'));
/** A turn's movement, field by field. */
const shownMovement = (m: TurnMovement): TurnMovement => ({
  styles: m.styles.map((x) => ({ style: x.style, variant: x.variant, ...(x.improvised === undefined ? {} : { improvised: x.improvised }) })),
  multiplier: m.multiplier,
  used: numbers(m.used),
  spent: m.spent,
  active: m.active,
  prone: m.prone,
  interrupted: m.interrupted.filter((x) => typeof x === 'string'),
});

// Default-deny (ADR 10): every field of the player's state is listed here; visibility is judged on the
// unprojected world, so a character the core projector already removed counts as secret, not unknown.
export const kleptoProject = (world: World, viewer: Viewer, source: World = world): World => {
  if (viewer.role === 'gm') return world;
  const st = getKlepto(world);
  const enc = getEncounter(world);
  // The kernel's projector has already removed hidden combatants: anyone not in the viewer's roster is secret.
  const secretC = (id: string): boolean => !Object.hasOwn(enc.combatants, id) || own(enc.combatants, id)!.visibility !== 'visible';
  const secretCh = (id: string): boolean => !Object.hasOwn(source.characters, id) || !canSee(own(source.characters, id)!.visibility, viewer);
  const dropC = <T>(m: { readonly [id: string]: T }): { [id: string]: T } => Object.fromEntries(Object.entries(m).filter(([id]) => !secretC(id)));
  const dropCh = <T>(m: { readonly [id: string]: T }): { [id: string]: T } => Object.fromEntries(Object.entries(m).filter(([id]) => !secretCh(id)));
  // A foe's level and resources (health, vitality...) are the GM's unless the table shows every number (ADR 33); a fall shows in the turn order.
  const foeOut = !showsFoeNumbers(source);
  const dropFoe = <T>(m: { readonly [id: string]: T }): { [id: string]: T } => (foeOut ? Object.fromEntries(Object.entries(m).filter(([id]) => !isFoeCharacter(source, id))) : { ...m });
  const view: KleptoState = {
    episode: st.episode,
    phase: st.phase,
    encounterPhase: st.encounterPhase,
    spotlight: st.spotlight,
    secondaryAwarded: st.secondaryAwarded.filter((id) => !secretCh(id)),
    // Records field by field (ADR 25): a key a record gains later stays with the GM.
    movement: Object.fromEntries(Object.entries(dropC(st.movement)).map(([id, m]) => [id, shownMovement(m)])),
    dashes: Object.fromEntries(Object.entries(dropC(st.dashes)).map(([id, d]) => [id, { round: d.round, count: d.count }])),
    freeActions: numbers(dropC(st.freeActions)),
    prone: st.prone.filter((id) => !secretC(id)),
    // An opening names two combatants: shown only where the viewer sees both.
    ...(st.opportunities === undefined ? {} : { opportunities: Object.fromEntries(Object.entries(st.opportunities).filter(([by, mover]) => typeof mover === 'string' && !secretC(by) && !secretC(mover))) }),
    xp: numbers(dropCh(st.xp)),
    levels: numbers(dropFoe(dropCh(st.levels))),
    resources: Object.fromEntries(
      Object.entries(dropFoe(dropCh(st.resources))).map(([id, rs]) => [id, Object.fromEntries(Object.entries(rs).filter(([, r]) => r !== null && typeof r === 'object').map(([k, r]) => [k, { value: r.value, max: r.max }]))]),
    ),
    episodic: Object.fromEntries(Object.entries(dropCh(st.episodic)).map(([id, list]) => [id, list.filter((x) => typeof x === 'string')])),
    improvised: Object.fromEntries(
      Object.entries(st.improvised)
        .filter(([, r]) => !secretCh(r.characterId))
        .map(([k, r]) => [k, { id: r.id, characterId: r.characterId, description: r.description, status: r.status }]),
    ),
    looseOrder: st.looseOrder?.filter((id) => !secretCh(id)) ?? null,
    opening: {
      introduced: st.opening.introduced.filter((id) => !secretCh(id)),
      clips: Object.fromEntries(Object.entries(dropCh(st.opening.clips)).filter(([, c]) => typeof c === 'string')),
      coldOpen: st.opening.coldOpen,
    },
  };
  return { ...world, ext: { ...world.ext, [KLEPTO_ID]: asJson(view) } };
};

// The projector's rule for one id (ADR 18): entries keyed by a combatant or character go with it, an improvisation with its character.
export const kleptoIdStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
  const st = getKlepto(world);
  const byC = own(st.movement, id) !== undefined || own(st.dashes, id) !== undefined || own(st.opportunities ?? {}, id) !== undefined;
  const byCh = own(st.resources, id) !== undefined || own(st.episodic, id) !== undefined;
  const improvised = own(st.improvised, id);
  if (!byC && !byCh && improvised === undefined) return undefined;
  if (viewer.role === 'gm') return 'shown';
  const seesCh = (x: string): boolean => {
    const ch = own(world.characters, x);
    return ch !== undefined && canSee(ch.visibility, viewer);
  };
  if (byC && own(getEncounter(world).combatants, id)?.visibility === 'visible') return 'shown';
  if (byCh && seesCh(id)) return 'shown';
  if (improvised !== undefined && seesCh(improvised.characterId)) return 'shown';
  return 'hidden';
};

export const kleptoProjectReads: ProjectorReads = { reads: [`ext.${KLEPTO_ID}`, 'characters', 'seats', 'ext.encounter', `ext.${FOES_ID}`], writes: [`ext.${KLEPTO_ID}`] };
