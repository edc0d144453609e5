// Test helpers: a table running the teams ruleset with dice we choose.
import { foesModule, scenario, sheetModule, type Json, type Rng, type Scenario } from '@tablekeeper/engine';
import { ruleset } from '../../src/teams/index.js';
import { TEAMS_SETTINGS } from '../../src/teams/settings.js';

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
  characterId: 'ch-boudica',
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

/** Start a fight: players against foes (players first), then give `first` the first turn. */
export function fight(s: Scenario, players: readonly string[], foes: readonly string[], first?: string): void {
  s.run({
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
