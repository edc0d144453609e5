// Player requests (issue 20, ADR 29): a player asks for damage, healing or a
// condition on their own character; the GM approves in one step (the
// ruleset's own command runs in the same transaction, exactly as the GM's own
// click would) or declines; waiting requests lapse when the fight ends. A
// request is private to its seat and the GM.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pendingRequests, requestsOf, type Json, type Table, type Transaction, type Viewer, type ViewMemo } from '@tablekeeper/engine';
import { events, GM, RulesetTable, SPECTATOR } from '../daggerheart/helpers.js';
import { hopeOf } from '../../src/daggerheart/index.js';

/** The shared ruleset table, plus the id a transaction minted (its first event's, or its request's). */
class Night extends RulesetTable {
  constructor(rulesetId: string) {
    super(rulesetId, { tableId: 't-req', seed: 20 });
  }
  hope(id: string): number {
    return hopeOf(this.world, id);
  }
  idOf(tx: Transaction): string {
    return String(tx.kind === 'command' ? (tx.events[0]!['id'] ?? (tx.events[0]!['request'] as { id: string }).id) : '');
  }
}

/** A seat for Ana playing Kira, one for Bo playing Brak, and a fight with both and a Goblin. */
function night(rulesetId: string, stats: { [k: string]: Json } = { hp: 10, maxHp: 10 }) {
  const n = new Night(rulesetId);
  const ana = n.idOf(n.run({ type: 'seat.add', name: 'Ana' }));
  const bo = n.idOf(n.run({ type: 'seat.add', name: 'Bo' }));
  const kira = n.idOf(n.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: ana, stats }));
  const brak = n.idOf(n.run({ type: 'character.add', name: 'Brak', kind: 'pc', seatId: bo, stats }));
  return { n, ana: { role: 'player', seatId: ana } as Viewer, bo: { role: 'player', seatId: bo } as Viewer, anaSeat: ana, kira, brak };
}

function startFight(n: Night, kira: string, brak: string, extra: { [k: string]: Json } = {}) {
  n.run({
    type: 'encounter.start',
    combatants: [
      { id: kira, name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { hp: 10, maxHp: 10, dex: 12 }, ...extra },
      { id: brak, name: 'Brak', kind: 'pc', side: 'party', characterId: brak, stats: { hp: 10, maxHp: 10, dex: 10 }, ...extra },
      { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes', stats: { hp: 5, maxHp: 5, dex: 8 }, ...extra },
    ],
    ...(n.rulesetId === 'teams' ? { params: { teamOrder: ['party', 'foes'] } } : {}),
  });
}

const hpOf = (n: Night, id: string) => (n.world.ext['encounter'] as { combatants: { [k: string]: { stats: { hp?: number } } } }).combatants[id]!.stats.hp;

describe('request.make, approve and decline (OSR: the kernel damage box, 001 "Hit Points")', () => {
  it('Ana asks for 3 damage on Kira; the GM approves in one step: Kira 10 -> 7, one transaction, one undo puts both back', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    const made = n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 3, note: 'the spikes' }, ana);
    const id = n.idOf(made);
    expect(pendingRequests(requestsOf(n.world)).map((r) => [r.id, r.kind, r.amount, r.note])).toEqual([[id, 'damage', 3, 'the spikes']]);
    expect(hpOf(n, kira)).toBe(10);
    const tx = n.run({ type: 'request.approve', id });
    // The kernel's own damage event, then the approval: as if the GM had typed 3 in Kira's damage box.
    expect(events(tx).map((e) => e.type)).toEqual(['encounter.hpChanged', 'request.approved']);
    expect(hpOf(n, kira)).toBe(7);
    expect(requestsOf(n.world).items[0]!.status).toBe('approved');
    expect(n.engine.view(n.table, GM).undoLabel).toBe('approve a request');
    n.run({ type: 'history.undo' });
    expect(hpOf(n, kira)).toBe(10);
    expect(requestsOf(n.world).items[0]!.status).toBe('pending');
  });

  it("Ana reads her own request field by field: a key it gains that no projector names stays with the GM (ADR 33)", () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 3, note: 'the spikes' }, ana);
    const st = requestsOf(n.world);
    // A field a later version might add (the GM's private note on it), written straight into the state.
    const planted = { ...n.world.ext, request: { items: st.items.map((r) => ({ ...r, gmOnly: 'zq_secret' })) } } as unknown as typeof n.world.ext;
    n.table = { ...n.table, world: { ...n.world, ext: planted } };
    const seen = n.engine.view(n.table, ana).world.ext['request'] as { items: { [k: string]: unknown }[] };
    expect(seen.items).toHaveLength(1);
    expect(seen.items[0]).toEqual({ id: st.items[0]!.id, seatId: st.items[0]!.seatId, characterId: kira, kind: 'damage', amount: 3, note: 'the spikes', status: 'pending' });
    expect(JSON.stringify(n.engine.view(n.table, GM).world)).toContain('zq_secret');
  });

  it("an approval's events equal the GM sending the mapped command itself (heal 4 after 6 damage: 10 -> 4 -> 8)", () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    n.run({ type: 'encounter.damage', id: kira, amount: 6 });
    const direct = new Night('osr');
    direct.table = n.table;
    const byGm = direct.run({ type: 'encounter.heal', id: kira, amount: 4 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 4 }, ana));
    const approved = n.run({ type: 'request.approve', id });
    expect(events(approved).slice(0, -1)).toEqual(events(byGm));
    expect(hpOf(n, kira)).toBe(8);
  });

  it('a condition request applies the catalogue condition for 2 rounds; the log tells Ana what the GM approved', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'custom:Soaked', duration: 'rounds', rounds: 2 }, ana));
    const tx = n.run({ type: 'request.approve', id });
    expect(events(tx).map((e) => e.type)).toContain('condition.applied');
    const log = n.engine.view(n.table, ana).world.log.map((e) => e.text);
    expect(log).toContain('Kira asks the GM for Soaked for 2 rounds.');
    expect(log).toContain('The GM approved Soaked for 2 rounds for Kira.');
  });

  it('declined with a reason: Ana reads it; Kira is untouched', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 5 }, ana));
    n.run({ type: 'request.decline', id, reason: 'no healer nearby' });
    const mine = requestsOf(n.engine.view(n.table, ana).world).items;
    expect(mine.map((r) => [r.status, r.reason])).toEqual([['declined', 'no healer nearby']]);
    expect(n.engine.view(n.table, ana).world.log.at(-1)!.text).toBe('The GM declined 5 healing for Kira: no healer nearby.');
    expect(hpOf(n, kira)).toBe(10);
    expect(n.fail({ type: 'request.approve', id })).toMatchObject({ code: 'INVALID_VALUE', message: 'id: that request was already declined' });
  });

  it('waiting requests expire when the fight ends, and the player is told why', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2 }, ana);
    const tx = n.run({ type: 'encounter.end' });
    // The fight's last round goes on the clock and the OSR sums the fight up first (ADR 44).
    expect(events(tx).map((e) => e.type)).toEqual(['encounter.ended', 'clock.advanced', 'osr.fightSummarized', 'request.expired']);
    expect(requestsOf(n.world).items[0]).toMatchObject({ status: 'expired', reason: 'the fight ended' });
    expect(n.engine.view(n.table, ana).world.log.at(-1)!.text).toBe("Kira's request for 2 damage expired: the fight ended.");
  });

  it('a character whose combatant the GM hides answers as not in the fight (the player cannot see it, so asking must not reveal it)', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    n.run({ type: 'encounter.hide', id: kira });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2 }, ana)).toMatchObject({ code: 'NOT_FOUND', message: 'Kira is not in a running fight: damage, healing and conditions can be asked for during an encounter' });
  });

  it('a waiting request lapses when its character leaves the table', () => {
    const { n, ana, kira, brak } = night('osr');
    startFight(n, kira, brak);
    n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 2 }, ana);
    const tx = n.run({ type: 'character.remove', id: kira });
    expect(events(tx).map((e) => e.type)).toContain('request.expired');
    expect(requestsOf(n.world).items[0]).toMatchObject({ status: 'expired', reason: 'the character left the table' });
  });

  it('a player may withdraw their own request, not another seat\'s (which answers as a missing one)', () => {
    const { n, ana, bo, kira, brak } = night('osr');
    startFight(n, kira, brak);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2 }, ana));
    const refused = n.fail({ type: 'request.withdraw', id }, bo);
    const missing = n.fail({ type: 'request.withdraw', id: 'rq-nosuchthing' }, bo);
    expect(refused.code).toBe(missing.code);
    expect(refused.message).toBe(missing.message.replace('rq-nosuchthing', id));
    n.run({ type: 'request.withdraw', id }, ana);
    expect(requestsOf(n.world).items[0]!.status).toBe('withdrawn');
  });

  it('refusals are sentences naming the field: not your character, a condition outside a fight, an unknown condition, a missing amount, more than 5 waiting', () => {
    const { n, ana, kira, brak } = night('osr');
    // Outside a fight a condition has no combatant to sit on (ADR 104; damage and healing are taken there, below).
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'poisoned' }, ana)).toMatchObject({ code: 'INVALID_VALUE', path: 'kind', message: "Kira is in no running fight: conditions are kept on a fight's combatants and wear off by their turns, so a condition can be asked for during an encounter" });
    startFight(n, kira, brak);
    expect(n.fail({ type: 'request.make', characterId: brak, kind: 'damage', amount: 2 }, ana)).toMatchObject({ code: 'FORBIDDEN', message: 'you may ask only for your own character' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'damage' }, ana)).toMatchObject({ code: 'INVALID_VALUE', path: 'amount', message: 'amount: is required for damage' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'Sparkly' }, ana).code).not.toBe('INTERNAL');
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'damage', amount: 0 }, ana)).toMatchObject({ code: 'INVALID_VALUE', path: 'amount' });
    for (let i = 0; i < 5; i++) n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 1 + i }, ana);
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'damage', amount: 9 }, ana)).toMatchObject({ code: 'LIMIT_EXCEEDED' });
  });
});

describe("each ruleset's own command (ADR 29)", () => {
  it("36th Way (002 'Damage'): a damage request on a hero with a sheet sends 36th-way.damage, the same events as the GM's damage box", () => {
    const { n, ana, kira, brak } = night('36th-way');
    n.run({ type: '36th-way.sheet.set', sheet: { id: kira, characterId: kira, name: 'Kira', kind: 'pc', level: 1, maxHp: 24, hp: 24 } });
    startFight(n, kira, brak, { band: 'fast' });
    const direct = new Night('36th-way');
    direct.table = n.table;
    const byGm = direct.run({ type: '36th-way.damage', target: kira, amount: 5 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 5 }, ana));
    const tx = n.run({ type: 'request.approve', id });
    expect(events(tx).slice(0, -1)).toEqual(events(byGm));
    expect(events(byGm)[0]!.type.startsWith('36th-way.')).toBe(true);
  });

  it("teams (003 'Damage'): a damage request on a fighter with a sheet sends teams.damage (deflection, endurance before health)", () => {
    const { n, ana, kira, brak } = night('teams');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12 } });
    startFight(n, kira, brak);
    const direct = new Night('teams');
    direct.table = n.table;
    const byGm = direct.run({ type: 'teams.damage', target: kira, amount: 5 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 5 }, ana));
    const tx = n.run({ type: 'request.approve', id });
    expect(events(tx).slice(0, -1)).toEqual(events(byGm));
    expect(events(byGm).some((e) => e.type.startsWith('teams.'))).toBe(true);
  });

  it("Daggerheart (000 thresholds, Major 7, Severe 14): 7 damage marks 2 HP; healing 1 clears 1 HP; no fight needed", () => {
    const { n, ana, kira } = night('daggerheart', { major: 7, severe: 14, hpMax: 6, armorMax: 2, stressMax: 6 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 7 }, ana));
    const tx = n.run({ type: 'request.approve', id });
    // With Armor Slots left, the hit waits for Ana's choice (ADR 50); she takes it unarmoured.
    const hit = events(tx).find((e) => e.type === 'daggerheart.hitPending')!['hit'] as { id: string };
    const answered = n.run({ type: 'daggerheart.answerHit', hitId: hit.id, markArmor: false }, ana);
    expect(events(answered).find((e) => e.type === 'daggerheart.damageTaken')).toMatchObject({ marks: 2 });
    expect(n.world.characters[kira]!.stats['hpMarked']).toBe(2);
    const heal = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 1 }, ana));
    n.run({ type: 'request.approve', id: heal });
    expect(n.world.characters[kira]!.stats['hpMarked']).toBe(1);
  });

  it('Kleptonomicon: the kernel damage box (the combatant\'s own hit points)', () => {
    const { n, ana, kira, brak } = night('kleptonomicon');
    startFight(n, kira, brak);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 4 }, ana));
    n.run({ type: 'request.approve', id });
    expect(hpOf(n, kira)).toBe(6);
  });
});

describe('a request for a declared action (Daggerheart 000 "Action Rolls": the GM sets the difficulty)', () => {
  it('Ana asks to climb the wall at +2; the GM approves at difficulty 12; Hope 8, Fear 3: 8 + 3 + 2 = 13 >= 12, a success with Hope, rolled in the approval; one undo takes back both', () => {
    const { n, ana, kira } = night('daggerheart', {});
    const hope = n.hope(kira);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'action', action: 'climb the wall', bonus: 2 }, ana));
    expect(pendingRequests(requestsOf(n.world)).map((r) => [r.kind, r.action, r.bonus])).toEqual([['action', 'climb the wall', 2]]);
    n.dice.queue(8, 3);
    const tx = n.run({ type: 'request.approve', id, difficulty: 12 });
    const rolled = events(tx).find((e) => e.type === 'daggerheart.actionRolled')!;
    expect(rolled['roll']).toMatchObject({ hope: 8, fear: 3, modifier: 2, total: 13, difficulty: 12, outcome: 'successWithHope' });
    expect(events(tx).at(-1)).toEqual({ type: 'request.approved', id, seatId: (ana as { seatId: string }).seatId, difficulty: 12 });
    expect(n.hope(kira)).toBe(hope + 1);
    const log = n.view(ana).world.log.map((e) => e.text);
    expect(log).toContain('Kira asks the GM for an action roll to climb the wall at +2.');
    expect(log).toContain('The GM approved an action roll to climb the wall at +2 for Kira at difficulty 12.');
    n.undo();
    expect(pendingRequests(requestsOf(n.world)).map((r) => r.id)).toEqual([id]);
    expect(n.hope(kira)).toBe(hope);
  });

  it('the approval equals the GM rolling it: the same events as daggerheart.actionRoll at difficulty 15 with the same dice', () => {
    const { n, ana, kira } = night('daggerheart', {});
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'action', action: 'sneak past', advantage: 1 }, ana));
    const before = n.table;
    n.dice.queue(5, 9, 4);
    const approved = n.run({ type: 'request.approve', id, difficulty: 15 });
    n.table = before;
    n.dice.queue(5, 9, 4);
    const byGm = n.run({ type: 'daggerheart.actionRoll', characterId: kira, difficulty: 15, advantage: 1, label: 'sneak past' });
    expect(events(approved).slice(0, -1)).toEqual(events(byGm));
  });

  it('refusals name the field: no difficulty, a difficulty on a damage request, no action named; OSR has no action roll to ask for', () => {
    const { n, ana, kira } = night('daggerheart', { major: 7, severe: 14, hpMax: 6 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'action', action: 'leap' }, ana));
    expect(n.fail({ type: 'request.approve', id })).toMatchObject({ code: 'INVALID_VALUE', path: 'difficulty' });
    const dmg = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2 }, ana));
    expect(n.fail({ type: 'request.approve', id: dmg, difficulty: 10 })).toMatchObject({ path: 'difficulty' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'action' }, ana).message).toContain('action');
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2, bonus: 1 }, ana).message).toContain('only an action request');
    const osr = night('osr');
    startFight(osr.n, osr.kira, osr.brak);
    expect(osr.n.fail({ type: 'request.make', characterId: osr.kira, kind: 'action', action: 'leap' }, osr.ana).message).toBe("Kira's ruleset has no action roll to ask for: ask for damage, healing or a condition");
  });
});

describe('requests are private to their seat and the GM (property)', () => {
  it('whatever Ana, Bo and the GM do, Bo and the spectator never read Ana\'s note, and Ana never reads Bo\'s; replay rebuilds the same world', () => {
    const step = fc.record({ who: fc.constantFrom('ana', 'bo', 'gm'), op: fc.constantFrom('make', 'approve', 'decline', 'withdraw', 'undo', 'end', 'start'), n: fc.nat({ max: 50 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 14 }), (steps) => {
        const { n, ana, bo, kira, brak } = night('osr');
        const memo: ViewMemo = { entryCopies: new WeakMap() };
        startFight(n, kira, brak);
        for (const s of steps) {
          const actor = s.who === 'ana' ? ana : s.who === 'bo' ? bo : GM;
          const ids = requestsOf(n.world).items.map((r) => r.id);
          const id = ids.length === 0 ? 'rq-none' : ids[s.n % ids.length]!;
          if (s.op === 'make') {
            const mine = s.who === 'bo' ? brak : kira;
            n.try({ type: 'request.make', characterId: mine, kind: s.n % 2 === 0 ? 'damage' : 'heal', amount: 1 + (s.n % 4), note: s.who === 'bo' ? 'BONOTE' : 'ANANOTE' }, actor);
          } else if (s.op === 'approve' || s.op === 'decline') n.try({ type: `request.${s.op}`, id, ...(s.op === 'decline' ? { reason: 'GMREASON' } : {}) }, actor);
          else if (s.op === 'withdraw') n.try({ type: 'request.withdraw', id }, actor);
          else if (s.op === 'undo') n.try({ type: 'history.undo' }, actor);
          else if (s.op === 'end') n.try({ type: 'encounter.end' });
          else if ((n.world.ext['encounter'] as { active?: boolean } | undefined)?.active !== true) startFight(n, kira, brak);
          const seen = (v: Viewer) => JSON.stringify(n.engine.view(n.table, v));
          const ofBo = seen(bo);
          const ofAna = seen(ana);
          const ofSpectator = seen(SPECTATOR);
          expect(ofBo).not.toContain('ANANOTE');
          expect(ofAna).not.toContain('BONOTE');
          expect(ofSpectator).not.toContain('NOTE');
          expect(ofSpectator).not.toContain('GMREASON');
          // A seat's view holds its own requests only.
          for (const r of requestsOf(n.engine.view(n.table, bo).world).items) expect(r.seatId).toBe((bo as { seatId: string }).seatId);
          // Also through one projection memo for the whole table, as a server room keeps (Ann projected just before Bo).
          for (const v of [ana, bo, SPECTATOR]) {
            const text = JSON.stringify(n.engine.project(n.world, v, memo));
            if (v !== ana) expect(text).not.toContain('ANANOTE');
            if (v !== bo) expect(text).not.toContain('BONOTE');
          }
        }
        const again = n.engine.replay(n.table.genesis, JSON.parse(JSON.stringify(n.table.transactions)) as Table['transactions']);
        expect(JSON.stringify(again.world)).toBe(JSON.stringify(n.world));
      }),
      { numRuns: 60 * Number(process.env['FC_RUNS_MULTIPLIER'] ?? 1) },
    );
  });
});

describe('request wording (review 9: "Dorn asks the GM for slowed until removed")', () => {
  it('a catalogue id reads as words, a custom condition as typed', async () => {
    const { describeRequest, plainCondition } = await import('@tablekeeper/engine/requests');
    expect(plainCondition('slowed')).toBe('Slowed');
    expect(plainCondition('hard-to-see')).toBe('Hard to see');
    expect(plainCondition('custom:Marked by the Duke')).toBe('Marked by the Duke');
    expect(describeRequest({ kind: 'condition', condition: 'slowed', duration: 'indefinite' })).toBe('Slowed until removed');
    expect(describeRequest({ kind: 'recoveries', amount: 1 })).toBe('1 recovery at a quick rest');
    expect(describeRequest({ kind: 'recoveries', amount: 3 })).toBe('3 recoveries at a quick rest');
  });
});

describe('damage and healing asked for outside a fight (review 13 #4, ADR 104)', () => {
  const charHp = (n: Night, id: string) => n.world.characters[id]!.stats['hp'];

  it("the Kleptonomicon: Ana asks for 4 healing after the fight; the GM's one tap heals Kira's sheet 3 -> 7 with one line for everyone; one undo puts it back", () => {
    const { n, ana, kira } = night('kleptonomicon', { hp: 3, maxHp: 10 });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 4 }, ana));
    const tx = n.run({ type: 'request.approve', id });
    expect(events(tx).map((e) => e.type)).toEqual(['encounter.hpChanged', 'request.approved']);
    expect(charHp(n, kira)).toBe(7);
    expect(n.engine.view(n.table, ana).world.log.map((l) => l.text)).toContain('Kira is healed by 4 (HP 3 → 7).');
    n.run({ type: 'history.undo' });
    expect(charHp(n, kira)).toBe(3);
    expect(requestsOf(n.world).items[0]!.status).toBe('pending');
  });

  it('the Kleptonomicon: damage outside a fight stops at 0, healing at full Health; a sheet with no Health is refused in words; a condition is refused before it waits', () => {
    const { n, ana, kira, brak } = night('kleptonomicon', { hp: 5, maxHp: 10 });
    n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 9 }, ana)) });
    expect(charHp(n, kira)).toBe(0);
    n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 40 }, ana)) });
    expect(charHp(n, kira)).toBe(10);
    const bare = n.idOf(n.run({ type: 'character.add', name: 'Zed', kind: 'pc', seatId: n.world.characters[kira]!.seatId, stats: {} }));
    expect(n.fail({ type: 'request.make', characterId: bare, kind: 'heal', amount: 1 }, ana)).toMatchObject({ message: 'Zed has no hit points on the sheet yet: the GM sets them first' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'slowed' }, ana).path).toBe('kind');
    expect(n.world.characters[brak]!.stats['hp']).toBe(5);
  });

  it('OSR: healing outside a fight goes through osr.heal as the damage box does (001: a dying character is stabilised, not topped up)', () => {
    const { n, ana, kira } = night('osr', { hp: 2, maxHp: 10, ac: 12 });
    const tx = n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'heal', amount: 3 }, ana)) });
    expect(events(tx).map((e) => e.type)).toContain('osr.healRolled');
    expect(charHp(n, kira)).toBe(5);
    const hit = n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 2 }, ana)) });
    expect(events(hit).map((e) => e.type)).toContain('osr.damageRolled');
    expect(charHp(n, kira)).toBe(3);
  });

  it('in a fight nothing changes: the request lands on the combatant as the kernel damage box would', () => {
    const { n, ana, kira, brak } = night('kleptonomicon');
    n.run({ type: 'kleptonomicon.startEpisode' });
    n.run({ type: 'kleptonomicon.freeplay' });
    startFight(n, kira, brak);
    const tx = n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'damage', amount: 3 }, ana)) });
    expect(events(tx).map((e) => e.type)).toEqual(['encounter.hpChanged', 'request.approved']);
    expect(hpOf(n, kira)).toBe(7);
  });

  it('property: any mix of damage and healing asked outside a fight keeps Health within 0 and full, and equals the sum clamped step by step', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 30 })), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 20 }), (steps, start) => {
        const { n, ana, kira } = night('kleptonomicon', { hp: start, maxHp: 20 });
        let expected = start;
        for (const [heal, amount] of steps) {
          n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId: kira, kind: heal ? 'heal' : 'damage', amount }, ana)) });
          expected = heal ? Math.max(expected, Math.min(20, expected + amount)) : Math.max(0, expected - amount);
          expect(charHp(n, kira)).toBe(expected);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('The 36th Way and teams: damage and healing asked for between fights land on the sheet a fight reads (ADR 110)', () => {
  const tswSheet = (n: Night, id: string) => (n.world.ext['36th-way'] as { sheets: { [k: string]: { hp: number; maxHp: number; dying: unknown; recoveries: number } } }).sheets[id]!;
  const teamsSheet = (n: Night, id: string) => (n.world.ext['teams'] as { sheets: { [k: string]: { endurance: number; health: number; conscious: boolean } } }).sheets[id]!;
  const ask = (n: Night, who: Viewer, characterId: string, kind: 'damage' | 'heal', amount: number) => n.run({ type: 'request.approve', id: n.idOf(n.run({ type: 'request.make', characterId, kind, amount }, who)) });
  const gmLines = (n: Night) => n.engine.view(n.table, GM).world.log.map((l) => l.text);

  it("36th Way (002 'Damage and Recovery'): a trap's 5 takes Kira's sheet 24 -> 19, a potion's 3 heals it to 22 with no recovery spent, 40 stops at 24; each one undo step", () => {
    const { n, ana, kira } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 24 } });
    const hit = ask(n, ana, kira, 'damage', 5);
    expect(events(hit).map((e) => e.type)).toEqual(['36th-way.damaged', 'request.approved']);
    expect(tswSheet(n, kira).hp).toBe(19);
    ask(n, ana, kira, 'heal', 3);
    // The GM's named healing (the damage box's Heal): 19 + 3, no recovery (002 "Recoveries": 8 at most, all still there).
    expect([tswSheet(n, kira).hp, tswSheet(n, kira).recoveries]).toEqual([22, 8]);
    ask(n, ana, kira, 'heal', 40);
    expect(tswSheet(n, kira).hp).toBe(24);
    n.undo();
    expect(tswSheet(n, kira).hp).toBe(22);
    expect(gmLines(n).some((t) => t.startsWith('Kira took 5 damage'))).toBe(true);
  });

  it('36th Way (002 "Dying and Death"): 10 damage at 4 HP leaves Kira dying at -6; any healing brings her back counted from 0 HP: 3 heals to 3, not -3', () => {
    const { n, ana, kira } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 4 } });
    ask(n, ana, kira, 'damage', 10);
    expect(tswSheet(n, kira).hp).toBe(-6);
    expect(tswSheet(n, kira).dying).not.toBe(null);
    ask(n, ana, kira, 'heal', 3);
    expect([tswSheet(n, kira).hp, tswSheet(n, kira).dying]).toEqual([3, null]);
  });

  it("teams (003 'Damage', the text's Kira: endurance 12, health 12, constitution 4): 7 takes endurance to 5 (harmed); healing refills health first, then endurance; full is refused in words before it waits", () => {
    const { n, ana, kira } = night('teams');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12 } });
    ask(n, ana, kira, 'damage', 7);
    expect([teamsSheet(n, kira).endurance, teamsSheet(n, kira).health]).toEqual([5, 12]);
    expect(gmLines(n).at(-2)).toContain('harmed');
    ask(n, ana, kira, 'heal', 4);
    // Health is full, so the healing goes to endurance: 5 + 4.
    expect([teamsSheet(n, kira).endurance, teamsSheet(n, kira).health]).toEqual([9, 12]);
    ask(n, ana, kira, 'heal', 10);
    expect(teamsSheet(n, kira).endurance).toBe(12);
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'heal', amount: 1 }, ana)).toMatchObject({ path: 'amount', message: 'Nothing to heal: endurance and health are full.' });
  });

  it('teams (003 "Staying Conscious", the text\'s Kira at endurance 5): 10 more takes endurance to 0 and health 12 -> 7; missing 5 is over constitution 4, and with no stamina to fortify (a reaction\'s cost) she falls unconscious', () => {
    const { n, ana, kira } = night('teams');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, endurance: 5 } });
    const tx = ask(n, ana, kira, 'damage', 10);
    expect(events(tx).map((e) => e.type)).toEqual(['teams.damaged', 'teams.fellUnconscious', 'request.approved']);
    expect([teamsSheet(n, kira).endurance, teamsSheet(n, kira).health, teamsSheet(n, kira).conscious]).toEqual([0, 7, false]);
    expect(gmLines(n)).toContain('Kira fell unconscious (could not fortify to stay conscious).');
    // With stamina for the reaction, the choice to fortify (difficulty 5, her missing health) waits for her.
    const b = night('teams');
    b.n.run({ type: 'character.sheet.set', characterId: b.kira, sheet: { constitution: 4, maxEndurance: 12, maxHealth: 12, endurance: 5, maxStamina: 2 } });
    const t2 = ask(b.n, b.ana, b.kira, 'damage', 10);
    expect(events(t2).map((e) => [e.type, e['difficulty'] ?? null])).toEqual([['teams.damaged', null], ['teams.consciousnessAtRisk', 5], ['request.approved', null]]);
    expect(teamsSheet(b.n, b.kira).conscious).toBe(true);
  });

  it('a sheet the fight reads: damage between fights carries into the next fight and back out, with no copy to keep in step (36th Way and teams)', () => {
    for (const rulesetId of ['36th-way', 'teams'] as const) {
      const { n, ana, kira, brak } = night(rulesetId);
      n.run({ type: 'character.sheet.set', characterId: kira, sheet: rulesetId === 'teams' ? { maxEndurance: 10, maxHealth: 10 } : { maxHp: 10, hp: 10 } });
      ask(n, ana, kira, 'damage', 4);
      const left = () => (rulesetId === 'teams' ? teamsSheet(n, kira).endurance : tswSheet(n, kira).hp);
      expect(left()).toBe(6);
      startFight(n, kira, brak, rulesetId === '36th-way' ? { band: 'fast' } : {});
      expect(left()).toBe(6);
      ask(n, ana, kira, 'damage', 1);
      expect(left()).toBe(5);
      n.run({ type: 'encounter.end' });
      expect(left()).toBe(5);
      ask(n, ana, kira, 'heal', 2);
      expect(left()).toBe(7);
    }
  });

  it('in a fight, a healing request heals the sheet too (it changed the combatant\'s unread number before ADR 110)', () => {
    const { n, ana, kira, brak } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    startFight(n, kira, brak, { band: 'fast' });
    const tx = ask(n, ana, kira, 'heal', 5);
    expect(events(tx).map((e) => e.type)).toEqual(['36th-way.healed', 'request.approved']);
    expect(tswSheet(n, kira).hp).toBe(15);
  });

  it('refused in words: no sheet yet; a condition between fights; a hidden combatant still reads as not in the fight', () => {
    const { n, ana, kira, brak } = night('36th-way');
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'heal', amount: 2 }, ana)).toMatchObject({ path: 'characterId', message: 'Kira has no 36th Way sheet yet: the GM fills it in first' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'dazed' }, ana).path).toBe('kind');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    startFight(n, kira, brak, { band: 'fast' });
    n.run({ type: 'encounter.hide', characterId: kira });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'heal', amount: 2 }, ana).message).toBe('Kira is not in a running fight: damage, healing and conditions can be asked for during an encounter');
  });

  it('property: any mix of damage and healing between fights keeps a 36th Way sheet at most its max HP; healing from below 0 counts from 0 (002)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 30 })), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 20 }), (steps, start) => {
        const { n, ana, kira } = night('36th-way');
        n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 20, hp: start } });
        let expected = start;
        for (const [heal, amount] of steps) {
          ask(n, ana, kira, heal ? 'heal' : 'damage', amount);
          expected = heal ? Math.min(20, Math.max(0, expected) + amount) : expected - amount;
          expect(tswSheet(n, kira).hp).toBe(expected);
          expect(tswSheet(n, kira).hp).toBeLessThanOrEqual(20);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('The 36th Way: recoveries a player chooses to spend at a quick rest, approved by the GM (002 "Quick Rest", "Recoveries"; ADR 110)', () => {
  const sheet = (n: Night, id: string) => (n.world.ext['36th-way'] as { sheets: { [k: string]: { hp: number; recoveries: number; exhaustion: number; dying: unknown } } }).sheets[id]!;
  const gmLines = (n: Night) => n.engine.view(n.table, GM).world.log.map((l) => l.text);

  it('Kira (10/24 HP, 1d8 recoveries) asks for 2; the GM approves: the dice 5 and 3 heal her to 18 with 6 of 8 left, one line each, one undo step', () => {
    const { n, ana, kira } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 2 }, ana));
    expect(pendingRequests(requestsOf(n.world)).map((r) => [r.kind, r.amount])).toEqual([['recoveries', 2]]);
    expect(gmLines(n).at(-1)).toContain('2 recoveries at a quick rest');
    n.dice.queue(5, 3);
    const tx = n.run({ type: 'request.approve', id });
    expect(events(tx).map((e) => e.type)).toEqual(['36th-way.healed', '36th-way.healed', 'request.approved']);
    expect([sheet(n, kira).hp, sheet(n, kira).recoveries]).toEqual([18, 6]);
    expect(gmLines(n).filter((t) => t.includes('spends a Recovery (quick rest)'))).toHaveLength(2);
    n.undo();
    expect([sheet(n, kira).hp, sheet(n, kira).recoveries]).toEqual([10, 8]);
  });

  it('past the last recovery the healing is halved and costs 1 exhaustion (002 "Recoveries"): 1 left, 2 asked, dice 6 and 4 heal 10 -> 16 -> 18', () => {
    const { n, ana, kira } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10, maxRecoveries: 8, recoveries: 1 } });
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 2 }, ana));
    n.dice.queue(6, 4);
    n.run({ type: 'request.approve', id });
    expect([sheet(n, kira).hp, sheet(n, kira).recoveries, sheet(n, kira).exhaustion]).toEqual([18, 0, 1]);
  });

  it('a dying PC comes back counted from 0 HP (002 "Dying and Death"): at -3, one recovery rolling 4 heals to 4', () => {
    const { n, ana, kira } = night('36th-way');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 3 } });
    n.run({ type: '36th-way.damage', targetId: kira, amount: 6 });
    expect(sheet(n, kira).dying).not.toBe(null);
    const id = n.idOf(n.run({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 1 }, ana));
    n.dice.queue(4);
    n.run({ type: 'request.approve', id });
    expect([sheet(n, kira).hp, sheet(n, kira).dying]).toEqual([4, null]);
  });

  it('refused in words: during a fight, past 20, with no sheet, with no amount, and in a ruleset with no recoveries', () => {
    const { n, ana, kira, brak } = night('36th-way');
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 1 }, ana).message).toBe('Kira has no 36th Way sheet yet: the GM fills it in first');
    n.run({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'recoveries' }, ana)).toMatchObject({ path: 'amount', message: 'amount: is required for recoveries: say how many to spend' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 21 }, ana)).toMatchObject({ path: 'amount', message: 'at most 20 recoveries in one ask' });
    startFight(n, kira, brak, { band: 'fast' });
    expect(n.fail({ type: 'request.make', characterId: kira, kind: 'recoveries', amount: 1 }, ana)).toMatchObject({ path: 'kind', message: 'recoveries are spent at a quick rest, once the fight has ended (in a fight, Rally heals with one)' });
    for (const rulesetId of ['osr', 'teams', 'kleptonomicon', 'daggerheart']) {
      const o = night(rulesetId);
      expect(o.n.fail({ type: 'request.make', characterId: o.kira, kind: 'recoveries', amount: 1 }, o.ana)).toMatchObject({ path: 'kind', message: "Kira's ruleset has no recoveries to spend: ask for healing instead" });
    }
  });

  it('the GM may spend them directly too (36th-way.restRecoveries), never during a fight', () => {
    const { n, kira, brak } = night('36th-way');
    n.run({ type: '36th-way.sheet.set', sheet: { id: kira, characterId: kira, name: 'Kira', kind: 'pc', level: 2, maxHp: 30, hp: 5, recoveryDice: { count: 2, sides: 8 }, recoveryBonus: 1 } });
    // 002 "Recoveries": the average rounds each die down, so 2d8 + 1 heals 4 + 4 + 1 = 9.
    n.run({ type: '36th-way.restRecoveries', characterId: kira, count: 1, average: true });
    expect(sheet(n, kira).hp).toBe(14);
    startFight(n, kira, brak, { band: 'fast' });
    expect(n.fail({ type: '36th-way.restRecoveries', characterId: kira, count: 1 }).code).toBe('IN_ENCOUNTER');
  });
});
