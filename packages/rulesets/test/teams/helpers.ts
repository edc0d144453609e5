// Test helpers: a table running the teams ruleset with dice we choose.
import { afterEach } from 'vitest';
import { foesModule, getEncounter, own, scenario, sheetModule, type Json, type Rng, type Scenario } from '@tablekeeper/engine';
import { ruleset } from '../../src/teams/index.js';
import { TEAMS_SETTINGS } from '../../src/teams/settings.js';
import { getTeams } from '../../src/teams/state.js';

/** An Rng that returns faces pushed in advance (a d1 needs none); throws when a die is unplanned. */
export class QueueRng implements Rng {
  readonly kind = 'seeded' as const;
  private faces: number[] = [];
  used: { sides: number; face: number }[] = [];
  push(...faces: number[]): this {
    this.faces.push(...faces);
    return this;
  }
  get left(): number {
    return this.faces.length;
  }
  die(sides: number): number {
    if (sides === 1) return 1;
    const face = this.faces.shift();
    if (face === undefined) throw new RangeError(`no face queued for a d${sides}`);
    if (face < 1 || face > sides) throw new RangeError(`face ${face} is not on a d${sides}`);
    this.used.push({ sides, face });
    return face;
  }
  snapshot(): string {
    return `queue:${this.faces.length}`;
  }
}

export function table(settings: { [k: string]: Json } = {}): { s: Scenario; dice: QueueRng } {
  const dice = new QueueRng();
  const defaults = Object.fromEntries(TEAMS_SETTINGS.map((x) => [x.key, x.default]));
  // With the sheet module (character.sheet.set, ADR 39) and the table's foe-stats choice (ADR 33), as every table's engine has them.
  const s = scenario([...ruleset.modules, sheetModule(ruleset.sheet!), foesModule], { rng: dice, rulesetId: 'teams', settings: { ...defaults, ...settings } });
  return { s, dice };
}

export const spear = { attributes: ['strength', 'dexterity'], proficiencies: ['finesse', 'martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
export const shortbow = { attributes: ['dexterity'], proficiencies: ['martial'], damage: 3, criticalDamage: 6, criticalThreshold: 20, damageType: 'piercing', delivery: 'projectile' };
export const dagger = { attributes: ['dexterity', 'strength'], proficiencies: ['finesse'], damage: 2, criticalDamage: 4, criticalThreshold: 19, damageType: 'piercing' };

/** Boudica as the examples describe her: strength d6, combat d6, athletics d4, martial +1, fortitude +1, constitution 4, 12 endurance, 12 health. */
export const boudica = {
  name: 'Boudica',
  attributes: { strength: 6, dexterity: 4 },
  skills: { combat: 6, athletics: 4 },
  proficiencies: { martial: 1, fortitude: 1 },
  evasion: 5,
  constitution: 4,
  maxEndurance: 12,
  maxHealth: 12,
  maxStamina: 4,
  maxFocus: 2,
  items: { spear: { name: 'spear', weapon: spear }, shield: { name: 'shield', block: 3, maxDurability: 6 }, sword: { name: 'sword', metal: true, parry: 2 } },
  wielded: ['spear', 'shield'],
};

/** An enemy with evasion 6 and physical damage reduction 8, no stamina (so a hit lands at once). */
export const enemy = (extra: object = {}) => ({
  name: 'Enemy',
  attributes: { strength: 6 },
  skills: { combat: 6 },
  evasion: 6,
  deflection: { physical: 8, elemental: 0 },
  constitution: 3,
  maxEndurance: 10,
  maxHealth: 10,
  ...extra,
});

export function sheet(s: Scenario, id: string) {
  const t = s.world.ext['teams'] as { sheets: { [k: string]: { [k: string]: Json } } };
  return t.sheets[id]!;
}

export function lastOf(s: Scenario, type: string): { [k: string]: Json } {
  const tx = s.table.transactions.at(-1)!;
  const evs = tx.kind === 'command' ? tx.events : [];
  const e = [...evs].reverse().find((x) => x.type === type);
  if (e === undefined) throw new Error(`no ${type} in the last transaction (${evs.map((x) => x.type).join(', ')})`);
  return e as { [k: string]: Json };
}

const waiting = new Map<Scenario, [string, object][]>();
// A sheet no fight ever set is a test that reads nothing it meant to: fail it rather than pass on an empty table.
afterEach(() => {
  const left = [...waiting.values()].flat().map(([id]) => id);
  waiting.clear();
  if (left.length > 0) throw new Error(`sheetFor: no fight added ${left.join(', ')}, so their sheets were never set`);
});

/**
 * Give a creature its sheet with the shared command (character.sheet.set, ADR 58). A bare id
 * such as 'foe' names a creature only once a fight adds it, so its sheet waits for the next
 * `fight()`/`start()`, which sets it before anyone's turn is chosen; a known creature (a
 * character, a combatant or an id with a sheet) gets it at once.
 */
export function sheetFor(s: Scenario, id: string, sheet: object): void {
  const enc = getEncounter(s.world);
  const known = Object.hasOwn(s.world.characters, id) || Object.hasOwn(getTeams(s.world).sheets, id) || (enc.active && Object.hasOwn(enc.combatants, id));
  if (!known) {
    waiting.set(s, [...(waiting.get(s) ?? []), [id, sheet]]);
    return;
  }
  // The old alias took the link in the sheet; the shared command takes it as the address: the character the combatant plays.
  const { characterId: link, ...fields } = sheet as { readonly characterId?: unknown };
  const played = enc.active && typeof link === 'string' && own(enc.combatants, id)?.characterId === link;
  s.run({ type: 'character.sheet.set', characterId: played ? link : id, sheet: fields as Json });
}

/**
 * Outside a fight a creature is a character: add one per name (an NPC for a sheet marked
 * `foe`, else a PC) and give it its sheet by character.sheet.set (ADR 58). Returns the minted ids.
 */
export function characters<K extends string>(s: Scenario, sheets: { readonly [k in K]: object }, npcs: readonly NoInfer<K>[] = []): { [k in K]: string } {
  const ids = {} as { [k in K]: string };
  for (const key of Object.keys(sheets) as K[]) {
    const { characterId: _link, ...fields } = sheets[key] as { readonly characterId?: unknown; readonly name?: string };
    const before = new Set(Object.keys(s.world.characters));
    s.run({ type: 'character.add', name: fields.name ?? key, kind: npcs.includes(key) ? 'npc' : 'pc' });
    const id = Object.keys(s.world.characters).find((k) => !before.has(k))!;
    s.run({ type: 'character.sheet.set', characterId: id, sheet: fields as Json });
    ids[key] = id;
  }
  return ids;
}

/** Set the sheets waiting for creatures the fight has just added (see sheetFor). */
function setWaiting(s: Scenario): void {
  const ws = waiting.get(s) ?? [];
  waiting.delete(s);
  for (const [id, sheet] of ws) sheetFor(s, id, sheet);
}

/** Start a fight as given (encounter.start), then set the sheets waiting for its creatures. */
export function start(s: Scenario, command: { readonly type: 'encounter.start'; readonly [k: string]: Json }): void {
  s.run(command);
  setWaiting(s);
}

/** Start a fight: players against foes (players first), then give `first` the first turn. */
export function fight(s: Scenario, players: readonly string[], foes: readonly string[], first?: string): void {
  start(s, {
    type: 'encounter.start',
    combatants: [...players.map((id) => ({ id, kind: 'pc', side: 'players' })), ...foes.map((id) => ({ id, kind: 'npc', side: 'foes' }))],
    params: { teamOrder: ['players', 'foes'] },
  });
  if (first !== undefined) turnTo(s, first);
}

type Enc = { current: string | null; pending: { options: string[] } | null; round: number };
export const enc = (s: Scenario): Enc => s.world.ext['encounter'] as unknown as Enc;

/** End turns (choosing `id` when offered) until it is `id`'s turn. */
export function turnTo(s: Scenario, id: string): void {
  for (let i = 0; i < 100; i++) {
    const e = enc(s);
    if (e.current === id) return;
    if (e.pending !== null) {
      s.run({ type: 'encounter.choose', id: e.pending.options.includes(id) ? id : e.pending.options[0]! });
      continue;
    }
    s.run({ type: 'encounter.endTurn' });
  }
  throw new Error(`${id} never got a turn`);
}
