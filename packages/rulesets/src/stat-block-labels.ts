// Each stat block field's label, in the rule text's own name for it and
// capitalised as a label (review 10: the bestiary read "hp", "hit dice",
// "max endurance"). The stat block schemas take them as titles (the forms'
// labels) and the bestiary's one-line view reads them here (no zod: a browser import).

const HP = { hp: 'HP' } as const;

export const STAT_BLOCK_LABELS: { readonly [rulesetId: string]: { readonly [key: string]: string } } = {
  // 001: "HP", "AC", "DEX", "HD", darksight.
  osr: { ...HP, ac: 'AC', dex: 'DEX', hitDice: 'Hit Dice (HD)', attackBonus: 'Attack bonus', damage: 'Damage', speed: 'Speed (feet)', darksight: 'Darksight' },
  // 002 as the party form says it (review 9).
  '36th-way': {
    ...HP,
    band: 'Initiative band',
    level: 'Level',
    ac: 'AC',
    pd: 'PD',
    md: 'MD',
    attackName: 'Attack name',
    attackBonus: 'Attack bonus',
    attackVs: 'Attack against',
    attackReach: 'Attack reaches',
    damage: 'Hit damage',
    missDamage: 'Miss damage',
    escalation: 'Uses the escalation die',
    resistType: 'Resists',
    resistAt: 'Resist number',
    weakTo: 'Weak to',
    abilities: 'Abilities',
  },
  // 003: the attributes, skills and proficiencies by name; endurance, health and stamina are the pools' full sizes.
  teams: {
    ...HP,
    team: 'Team',
    size: 'Size',
    evasion: 'Evasion',
    deflection: 'Deflection',
    maxEndurance: 'Endurance',
    maxHealth: 'Health',
    constitution: 'Constitution',
    maxStamina: 'Stamina',
    strength: 'Strength',
    dexterity: 'Dexterity',
    combat: 'Combat',
    athletics: 'Athletics',
    martial: 'Martial',
    fortitude: 'Fortitude',
    weapon: 'Weapon',
    weaponDamage: 'Weapon damage',
    criticalDamage: 'Critical damage',
    criticalThreshold: 'Critical threshold',
    damageType: 'Damage type',
    delivery: 'Delivery',
  },
  // 004: Edge Save, Defense, creature type, the Basic Attack.
  kleptonomicon: { ...HP, edgeSave: 'Edge Save', defense: 'Defense', creatureType: 'Creature type', attackModifier: 'Basic Attack modifier', attackDamage: 'Basic Attack damage', attackKind: 'Basic Attack kind' },
  // 000: difficulty, the Major and Severe thresholds, Stress, moves.
  daggerheart: { ...HP, difficulty: 'Difficulty', major: 'Major threshold', severe: 'Severe threshold', stress: 'Stress', attack: 'Attack modifier', damage: 'Damage', moves: 'Moves' },
};

/** A chosen value in the words its picker shows (the schema's x-labels): "ac" reads "AC" (review 10: "attack vs ac"). */
export const STAT_BLOCK_VALUE_WORDS: { readonly [rulesetId: string]: { readonly [key: string]: { readonly [value: string]: string } } } = {
  '36th-way': {
    band: { 'very-fast': 'very fast', 'very-slow': 'very slow' },
    attackVs: { ac: 'AC', pd: 'PD', md: 'MD' },
    attackReach: { engaged: 'engaged (melee)', nearby: 'nearby (and engaged)', far: 'far (anyone)' },
  },
};

/** A stat block's value as its form's picker words it; a number or a typed name as it is. */
export function statBlockValue(rulesetId: string, key: string, value: string): string {
  return STAT_BLOCK_VALUE_WORDS[rulesetId]?.[key]?.[value] ?? value;
}

/** A stat block field's label: the ruleset's, else HP, else the key in words with a capital. */
export function statBlockLabel(rulesetId: string, key: string): string {
  const known = STAT_BLOCK_LABELS[rulesetId]?.[key] ?? (key === 'hp' ? 'HP' : undefined);
  if (known !== undefined) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
