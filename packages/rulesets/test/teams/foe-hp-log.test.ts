// A foe's endurance and health are the GM's (ADR 33): players read its damage
// and its fall in the log and in history; a PC's line is the same for all.
import { describe, expect, it } from 'vitest';
import type { TableView, Viewer } from '@tablekeeper/engine';
import { boudica, enemy, fight, lastOf, sheetFor, shortbow, table, turnTo } from './helpers.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };
const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

function boudicaFights() {
  const t = table();
  t.s.run({ type: 'seat.add', name: 'Ann' });
  sheetFor(t.s, 'boudica', boudica);
  sheetFor(t.s, 'foe', enemy());
  fight(t.s, ['boudica'], ['foe']);
  return t;
}

describe("Teams: a foe's endurance and health in log lines and history", () => {
  it('players read the damage and the fall; the GM reads the numbers', () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.damage', target: 'foe', amount: 7, reduce: false });
    const gm = s.view(GM);
    const seen = s.view(PLAYER);
    expect(lines(gm, 'teams.damaged')[0]).toContain('endurance 3, health 10');
    expect(lines(seen, 'teams.damaged')).toEqual(['Enemy took 7 damage.']);
    expect(events(gm, 'teams.damaged')[0]).toMatchObject({ endurance: { to: 3 }, health: { to: 10 } });
    const ev = events(seen, 'teams.damaged');
    expect(ev).toHaveLength(1);
    expect(ev[0]).not.toHaveProperty('endurance');
    expect(ev[0]).not.toHaveProperty('health');
    expect(ev[0]).toMatchObject({ amount: 7 });
  });

  it('a foe brought to 0 health: players read the damage (its fall has its own line), without its numbers', () => {
    const { s, dice } = boudicaFights();
    dice.push(1);
    s.run({ type: 'teams.damage', target: 'foe', amount: 25, reduce: false });
    expect(lines(s.view(PLAYER), 'teams.damaged')).toEqual(['Enemy took 25 damage.']);
    expect(lines(s.view(GM), 'teams.damaged')[0]).toContain('endurance 0, health 0');
  });

  it("difficulties worked out from a foe's constitution and luck reach players without their numbers (ADR 33)", () => {
    const { s, dice } = boudicaFights();
    dice.push(1);
    s.run({ type: 'teams.damage', target: 'foe', amount: 25, reduce: false });
    const kinds = ['teams.consciousnessAtRisk', 'teams.fortified', 'teams.deathRisked', 'teams.fellUnconscious'];
    const gm = s.view(GM).world.log.filter((e) => kinds.includes(e.kind)).map((e) => e.text);
    const seen = s.view(PLAYER).world.log.filter((e) => kinds.includes(e.kind)).map((e) => e.text);
    expect(seen).toHaveLength(gm.length);
    expect(gm.join(' ')).toMatch(/against \d+/);
    for (const l of seen) expect(l).not.toMatch(/against \d|next time \d/);
    for (const e of s.view(PLAYER).history.flatMap((tx) => tx.events).filter((x) => kinds.includes(x.type))) {
      expect(e).not.toHaveProperty('difficulty');
      expect(e).not.toHaveProperty('newDifficulty');
    }
    // Revealed in full, the lines written from then on name the numbers to everyone.
    const t2 = boudicaFights();
    t2.s.run({ type: 'foes.reveal', reveal: 'all' });
    t2.dice.push(1);
    t2.s.run({ type: 'teams.damage', target: 'foe', amount: 25, reduce: false });
    const of = (v: TableView) => v.world.log.filter((e) => kinds.includes(e.kind)).map((e) => e.text);
    expect(of(t2.s.view(PLAYER))).toEqual(of(t2.s.view(GM)));
    expect(of(t2.s.view(PLAYER)).join(' ')).toMatch(/against \d+/);
  });

  it("a PC's line and event are the same for players and the GM", () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.damage', target: 'boudica', amount: 7 });
    const gm = s.view(GM);
    const seen = s.view(PLAYER);
    expect(lines(seen, 'teams.damaged')).toEqual(lines(gm, 'teams.damaged'));
    expect(lines(seen, 'teams.damaged')[0]).toContain('endurance 5, health 12');
    expect(events(seen, 'teams.damaged')).toEqual(events(gm, 'teams.damaged'));
  });

  /** Boudica and the Enemy with stamina to fortify (constitution 3, endurance 10, health 10), in a fight. */
  function withStamina() {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    sheetFor(t.s, 'boudica', enemy({ name: 'Boudica', stamina: 5, maxStamina: 5 }));
    sheetFor(t.s, 'foe', enemy({ stamina: 5, maxStamina: 5 }));
    fight(t.s, ['boudica'], ['foe']);
    return t.s;
  }
  const atRisk = (s: ReturnType<typeof withStamina>, v: Viewer) => (s.view(v).world.ext['teams'] as { atRisk: { [id: string]: { difficulty?: number } } }).atRisk;

  it("a foe at risk of falling unconscious: players read that it is at risk, not a placeholder difficulty 0; with every number shown, its difficulty (ADR 45)", () => {
    const s = withStamina();
    // 15 damage, endurance 10 takes 10: 5 health missing is more than its constitution 3.
    s.run({ type: 'teams.damage', target: 'foe', amount: 15, reduce: false });
    const difficulty = atRisk(s, GM)['foe']?.difficulty;
    expect(difficulty).toBeGreaterThan(0);
    expect(atRisk(s, PLAYER)).toEqual({ foe: {} });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(atRisk(s, PLAYER)).toEqual({ foe: {} });
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(atRisk(s, PLAYER)).toEqual({ foe: { difficulty } });
  });

  it("a PC at risk shows everyone its difficulty (the party's own number)", () => {
    const s = withStamina();
    s.run({ type: 'teams.damage', target: 'boudica', amount: 15, reduce: false });
    expect(atRisk(s, GM)['boudica']?.difficulty).toBeGreaterThan(0);
    expect(atRisk(s, PLAYER)).toEqual(atRisk(s, GM));
  });
});

describe("Teams: a foe's Evasion when a PC attacks it (ADR 33: defences follow the GM's reveal)", () => {
  it('players read the result and the verdict, not the Evasion, until the GM shows defences; the GM reads it all', () => {
    const { s, dice } = boudicaFights();
    const attack = () => {
      dice.push(3, 3, 10);
      s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    };
    attack();
    const gmLine = lines(s.view(GM), 'teams.attacked').at(-1)!;
    const seenLine = lines(s.view(PLAYER), 'teams.attacked').at(-1)!;
    expect(gmLine).toMatch(/^Boudica attacked Enemy: strength 3 \+ combat 3 \+1 = 7 with luck 10 against evasion \d+, a (hit|miss)/);
    expect(seenLine).toMatch(/^Boudica attacked Enemy: strength 3 \+ combat 3 \+1 = 7 with luck 10, a (hit|miss)/);
    expect(seenLine).not.toMatch(/evasion/);
    const seenEvent = events(s.view(PLAYER), 'teams.attacked').at(-1)!;
    expect(seenEvent).not.toHaveProperty('evasion');
    expect(seenEvent).toHaveProperty('result');
    expect(events(s.view(GM), 'teams.attacked').at(-1)).toHaveProperty('evasion');
    // Shown defences: the next line and the history event name it to players too.
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    s.run({ type: 'encounter.endTurn' });
    for (let i = 0; i < 6 && (s.world.ext['encounter'] as { current: string | null }).current !== 'boudica'; i++) s.run({ type: 'encounter.endTurn' });
    attack();
    expect(lines(s.view(PLAYER), 'teams.attacked').at(-1)).toMatch(/against evasion \d+/);
    expect(events(s.view(PLAYER), 'teams.attacked').at(-1)).toHaveProperty('evasion');
  });
});

describe("Teams: a foe's defences and stamina in the lines players read (review 7)", () => {
  const agnessa = { name: 'Agnessa', attributes: { dexterity: 6 }, skills: { combat: 4 }, maxStamina: 2, items: { bow: { weapon: shortbow } } };
  const brute = enemy({ name: 'Brute', maxStamina: 3, deflection: 1, attributes: { strength: 6, dexterity: 4 }, skills: { combat: 4, athletics: 2 }, items: { club: { name: 'club', weapon: { attributes: ['strength'], damage: 4, criticalDamage: 8, criticalThreshold: 20, damageType: 'bludgeoning' } } } });
  function agnessaShoots() {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    sheetFor(t.s, 'agnessa', agnessa);
    sheetFor(t.s, 'brute', brute);
    fight(t.s, ['agnessa'], ['brute']);
    turnTo(t.s, 'agnessa');
    t.dice.push(5, 4, 10); // 9 against the brute's evasion: a hit, waiting for its answer
    t.s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    return t;
  }

  it("a hit on a foe: players read that it was hit, not the raw damage its deflection cut (the GM reads both)", () => {
    const { s } = agnessaShoots();
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'none' });
    const gm = lines(s.view(GM), 'teams.hitResolved');
    const seen = lines(s.view(PLAYER), 'teams.hitResolved');
    // One hit, one line: the split and the type, then endurance and health for the GM; players read the hit and the damage dealt.
    // 12 less deflection 1 is 11: endurance 10 to 0 takes 10, health 10 to 9 the last 1.
    expect(gm).toEqual(['Brute takes 11 of 12 piercing damage (deflection stopped 1): 10 off endurance, then 1 off health; endurance 0, health 9 (harmed, bloodied).']);
    expect(seen).toEqual(['Brute is hit: 11 piercing damage.']);
    expect(lines(s.view(GM), 'teams.damaged')).toEqual([]);
    expect(lines(s.view(PLAYER), 'teams.damaged')).toEqual([]);
    const ev = events(s.view(PLAYER), 'teams.hitResolved');
    expect(ev).toHaveLength(1);
    expect(ev[0]).not.toHaveProperty('raw');
    expect(events(s.view(GM), 'teams.hitResolved')[0]).toHaveProperty('raw');
  });

  it("a foe's dodge: players read what it spent stamina on, not how much or how much is left", () => {
    const { s, dice } = agnessaShoots();
    dice.push(1, 1, 10);
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } });
    const gm = lines(s.view(GM), 'teams.resourceSpent');
    const seen = lines(s.view(PLAYER), 'teams.resourceSpent');
    expect(gm[0]).toMatch(/^Brute spent \d+ stamina \(\d+ left\) for dodge\.$/);
    expect(seen).toEqual(['Brute spent stamina for dodge.']);
    for (const e of events(s.view(PLAYER), 'teams.resourceSpent')) {
      expect(e).not.toHaveProperty('to');
      expect(e).not.toHaveProperty('n');
    }
  });
});
