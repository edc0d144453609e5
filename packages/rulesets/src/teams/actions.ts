// teams.actions: what the acting creature may do now (003 "Actions in
// Combat": three actions a turn and one reaction; the Actions, Reactions and
// Free Actions tables). Attack is teams.attack with the sheet's own weapons;
// every other row is the kernel's encounter.spend, offered only when the
// kernel's planner says the economy can pay for it.
import { TEAMS_ACTIONS, TEAMS_ECONOMY, getEncounter, ok, own, teamsActionRequest, type Json, type Result } from '@tablekeeper/engine';
import { action, actionsQuery, affordable, forbid, judge, othersInView, sideOf, type Actor, type ActionOption, type TurnAction } from '../actions.js';
import { LIMITS, type Sheet } from './sheet.js';
import { getTeams } from './state.js';
import { capabilitiesOf } from '../capabilities.js';
import { canFight, canTest, testChoices } from './choices.js';
import { killingStrikeRefuses, numSetting } from './settings.js';

const MAX_DIFFICULTY = 1000;
const yes = { allowed: true, reason: null };

function costWords(kind: string, cost: number): string {
  if (kind === 'free') return 'free';
  if (kind === 'reaction') return 'the reaction';
  return cost === 1 ? '1 action' : `${cost} actions`;
}

function build(a: Actor): Result<readonly TurnAction[]> {
  const sheets = getTeams(a.world).sheets;
  const me = own(sheets, a.combatant.id);
  const out: TurnAction[] = [];
  let attackCheck: { allowed: boolean; reason: string | null } = yes;
  if (me !== undefined) {
    // What is wielded comes first and is the default (003 "Brandish": the items in hand), the rest marked not in hand;
    // a sheet that wields nothing keeps no track of hands, so its weapons carry no note.
    const armed = Object.entries(me.items).filter(([, it]) => it.weapon !== null);
    const held = (id: string) => me.wielded.includes(id);
    const weapons: ActionOption[] =
      me.wielded.length === 0
        ? armed.map(([id, it]) => ({ value: id, label: it.name }))
        : [...armed.filter(([id]) => held(id)).map(([id, it]) => ({ value: id, label: it.name, note: 'in hand' })), ...armed.filter(([id]) => !held(id)).map(([id, it]) => ({ value: id, label: it.name, note: 'not in hand' }))];
    // Sheets are keyed by combatant id; a secret sheet is a name only in a player's view, still a target.
    const targets: ActionOption[] = othersInView(a).flatMap((c): ActionOption[] => {
      const s = own(sheets, c.id);
      // A creature without a sheet is listed, never silently left out (review 10: the builder's wolves): the engine would refuse it until it has an Evasion.
      if (s === undefined) return [{ value: c.id, label: c.name, side: sideOf(a, c), refused: 'no Evasion yet: set it with its Sheet' }];
      // The downed and the dead stay targets (a killing strike, a hit on the fallen) but never the default (ADR 52).
      const standing = s.dead === true ? ('dead' as const) : s.conscious === false ? ('down' as const) : ('up' as const);
      return [{ value: c.id, label: s.name, side: sideOf(a, c), standing, ...(standing === 'up' ? {} : { note: standing === 'dead' ? 'dead' : 'unconscious' }) }];
    });
    attackCheck = judge(weapons.length === 0 ? forbid(`${me.name} carries no weapon`) : yes, canFight(me), targets.length === 0 ? forbid('nobody this view can see to attack') : yes);
    out.push(
      action({
        id: 'attack',
        label: 'Attack',
        cost: '1 action',
        command: 'teams.attack',
        fixed: { attackerId: a.combatant.id },
        target: { field: 'targetId', multiple: false, options: targets },
        choices: [{ field: 'weapon', label: 'Weapon', options: weapons }],
        numbers: [{ field: 'bonus', label: 'Bonus', min: -100, max: 100, value: 0 }],
        flags: [
          { field: 'sneak', label: 'Sneak attack', value: false },
          { field: 'flank', label: 'Flanking', value: false },
        ],
        odds: { query: 'teams.attackOdds', args: { attackerId: a.combatant.id }, pass: ['targetId', 'weapon', 'bonus', 'sneak', 'flank'] },
        ...judge(attackCheck, affordable(a, 'action')),
      }),
    );
    if (a.combatant.readied?.action === 'Attack') {
      // 003 "Ready an Action": a readied Attack is rolled as the attack, paid with the reaction, before the turn it interrupts.
      const enc = getEncounter(a.world);
      const others = othersInView(a).sort((x, y) => Number(y.id === enc.current) - Number(x.id === enc.current));
      out.push(
        action({
          id: capabilitiesOf('teams').readiedAttackAction ?? 'readied-attack',
          label: 'Readied attack',
          cost: 'the reaction',
          command: 'teams.attack',
          fixed: { attackerId: a.combatant.id, readied: true },
          target: { field: 'targetId', multiple: false, options: targets },
          choices: [
            { field: 'weapon', label: 'Weapon', options: weapons },
            { field: 'beforeId', label: 'Before the turn of', options: others.map((c) => ({ value: c.id, label: own(sheets, c.id)?.name ?? c.name })) },
          ],
          numbers: [{ field: 'bonus', label: 'Bonus', min: -100, max: 100, value: 0 }],
          flags: [
            { field: 'sneak', label: 'Sneak attack', value: false },
            { field: 'flank', label: 'Flanking', value: false },
          ],
          odds: { query: 'teams.attackOdds', args: { attackerId: a.combatant.id }, pass: ['targetId', 'weapon', 'bonus', 'sneak', 'flank'] },
          ...judge(weapons.length === 0 ? forbid(`${me.name} carries no weapon`) : yes, canFight(me), targets.length === 0 ? forbid('nobody this view can see to attack') : yes, affordable(a, 'reaction')),
        }),
      );
    }
  }
  if (me === undefined) {
    // No sheet, no weapon: Attack still shows, under "Not now", with what to do (review 10: builder wolves had no Attack at all).
    out.push(action({ id: 'attack', label: 'Attack', cost: '1 action', command: 'teams.attack', fixed: { attackerId: a.combatant.id }, ...forbid(`${a.combatant.name} has no sheet yet: give it a weapon and an Evasion with its Sheet on the encounter`) }));
  }
  if (me !== undefined) {
    // 003 "Death": a killing strike on an unconscious creature, the three-action activity in combat.
    const n = numSetting(a.world, 'teams.killingStrikeActions');
    const down = othersInView(a).flatMap((c) => {
      const s = own(sheets, c.id);
      return s === undefined || s.conscious !== false || s.dead === true ? [] : [{ value: c.id, label: s.name }];
    });
    const lethal = Object.entries(me.items)
      .filter(([, it]) => it.weapon !== null && killingStrikeRefuses(a.world, it.weapon.nonlethal) === null)
      .map(([id, it]) => ({ value: id, label: it.name }));
    out.push(
      action({
        id: 'killing-strike',
        label: 'Killing Strike',
        cost: `${n} actions`,
        command: 'teams.killingStrike',
        fixed: { attackerId: a.combatant.id },
        target: { field: 'targetId', multiple: false, options: down },
        choices: [{ field: 'weapon', label: 'Weapon', options: lethal }],
        odds: { query: 'teams.killingStrikeOdds', args: { attackerId: a.combatant.id }, pass: ['targetId', 'weapon'] },
        ...judge(down.length === 0 ? forbid('nobody here is unconscious') : yes, lethal.length === 0 ? forbid(`${me.name} carries no lethal weapon`) : yes, canFight(me), affordable(a, 'action', n, { label: 'Killing Strike' })),
      }),
    );
  }
  for (const row of TEAMS_ACTIONS) {
    if (row.name === 'Attack') continue;
    // Block, Parry and Intercept answer a hit (teams.reactions asks the target); spent from this list they did nothing (GM review, issue 20).
    if (row.kind === 'reaction' && !TESTED_REACTIONS.has(row.name)) continue;
    const req = teamsActionRequest(row.name, a.onTurn);
    if (req === null) continue;
    const { kind, cost, ...extra } = req;
    const id = row.name.toLowerCase().replace(/\s+/g, '-');
    const acted = me === undefined ? null : actRow(a, me, row.name);
    if (acted !== null) {
      const { check, ...form } = acted;
      const command = TESTED_REACTIONS.has(row.name) ? 'teams.react' : 'teams.act';
      out.push(action({ id, label: row.name, cost: costWords(kind, cost), command, fixed: { characterId: a.combatant.id, action: row.name }, ...form, ...judge(check, affordable(a, kind, cost, extra)) }));
      continue;
    }
    const fixed: { [k: string]: Json } = { characterId: a.combatant.id, kind: req.kind, cost: req.cost, label: row.name };
    if (req.tag !== undefined) fixed['tag'] = req.tag;
    if (req.limit !== undefined) fixed['limit'] = req.limit;
    if (req.requires !== undefined) fixed['requires'] = req.requires;
    out.push(action({ id, label: row.name, cost: costWords(kind, cost), command: 'encounter.spend', fixed, ...affordable(a, kind, cost, extra) }));
  }
  if (me !== undefined) out.unshift(...commandedRows(a, me, out.find((x) => x.id === 'attack'), attackCheck));
  // An unconscious or dead creature takes no action and no reaction (003 "Initiative and Rounds").
  if (me !== undefined && (!me.conscious || me.dead)) return ok(out.map((x) => ({ ...x, ...forbid(`${me.name} is ${me.dead ? 'dead' : 'unconscious'}`) })));
  return ok(out);
}

/** Who commanded this creature during the turn under way (003 Actions table "Command"), by name; null when no Command is open for it. */
function commandedBy(a: Actor): string | null {
  const enc = getEncounter(a.world);
  const st = getTeams(a.world);
  const g = own(st.commanded, a.combatant.id);
  // A grant lasts only through the commander's own turn: the turn numbers are the viewer's, as the projector gives them.
  if (g === undefined || g.by !== enc.current || g.serial !== enc.turnSerial) return null;
  return own(st.sheets, g.by)?.name ?? own(enc.combatants, g.by)?.name ?? 'an ally';
}

/**
 * The single actions a Command grants (one action, not ending a turn, not another Command; 003 Actions table),
 * sent with `commanded: true` so the ally's own actions stay unspent; they go once used or when the turn moves on.
 */
function commandedRows(a: Actor, me: Sheet, attack: TurnAction | undefined, attackCheck: { allowed: boolean; reason: string | null }): TurnAction[] {
  const by = commandedBy(a);
  if (by === null) return [];
  const cost = `given by ${by}'s Command`;
  const out: TurnAction[] = [];
  if (attack !== undefined) out.push({ ...attack, id: 'attack-commanded', label: 'Attack (commanded)', cost, fixed: { ...attack.fixed, commanded: true }, ...attackCheck });
  const prone = Object.values(getEncounter(a.world).conditions).some((i) => i.target === a.combatant.id && i.defId === 'prone');
  for (const row of TEAMS_ACTIONS) {
    // Sprint needs a Move this turn first, which one granted action cannot have had.
    if (row.kind !== 'action' || row.cost !== 1 || row.endsTurn === true || row.requires !== undefined || row.name === 'Command' || row.name === 'Attack') continue;
    const { check, ...form } = actRow(a, me, row.name) ?? { check: yes };
    const standing = row.name === 'Stand Up' && !prone ? forbid(`${me.name} is not prone`) : yes;
    const id = `${row.name.toLowerCase().replace(/\s+/g, '-')}-commanded`;
    out.push(action({ id, label: `${row.name} (commanded)`, cost, command: 'teams.act', fixed: { characterId: a.combatant.id, action: row.name, commanded: true }, ...form, ...judge(check, standing) }));
  }
  return out;
}

/** Reactions that are a test against what the GM names (an effect, a trap): teams.react rolls them. */
const TESTED_REACTIONS = new Set(['Fortify', 'Resist', 'Dodge']);

/** Actions a readied action may be (one action that does not end the turn), and the attack. */
const READYABLE = TEAMS_ACTIONS.filter((r) => r.kind === 'action' && r.cost === 1 && r.endsTurn !== true && r.name !== 'Command').map((r) => ({ value: r.name, label: r.name }));

/** Rows teams.act carries out (a condition, a test, a log line), with the form they need; null keeps the plain spend. */
function actRow(a: Actor, me: Sheet, name: string): (Partial<TurnAction> & { check: { allowed: boolean; reason: string | null } }) | null {
  const sheets = getTeams(a.world).sheets;
  switch (name) {
    case 'Guard':
    case 'Move':
    case 'Seek Cover':
    case 'Drop Prone':
    case 'Wait':
    case 'Step':
    case 'Interact':
      return { check: yes };
    case 'Resuscitate': {
      // 003: go prone, then a test to bring someone back to consciousness (the example: Clementine and Roland).
      const down = othersInView(a).flatMap((c) => {
        const s = own(sheets, c.id);
        return s === undefined || s.conscious || s.dead ? [] : [{ value: c.id, label: s.name, side: sideOf(a, c), standing: 'down' as const }];
      });
      return {
        target: { field: 'targetId', multiple: false, aim: 'allies', options: down },
        choices: testChoices(me),
        numbers: [{ field: 'difficulty', label: 'Difficulty', min: 0, max: MAX_DIFFICULTY, value: numSetting(a.world, 'teams.resuscitateDifficulty') }],
        odds: { query: 'teams.testOdds', args: { characterId: a.combatant.id }, pass: ['test', 'difficulty'] },
        check: judge(down.length === 0 ? forbid('nobody here is unconscious') : yes, canTest(me)),
      };
    }
    case 'Short Task':
      // Three actions, then a test against the difficulty the GM names (003 Actions table).
      return {
        texts: [{ field: 'label', label: 'Task', value: '', max: 80 }],
        choices: testChoices(me),
        numbers: [{ field: 'difficulty', label: 'Difficulty', min: 0, max: MAX_DIFFICULTY, value: 10 }],
        odds: { query: 'teams.testOdds', args: { characterId: a.combatant.id }, pass: ['test', 'difficulty'] },
        check: canTest(me),
      };
    case 'Brandish': {
      // Choose what is held: any of the sheet's own items (003 sets no number; the sheet's Wielded takes as many, and so does teams.act).
      const items = Object.entries(me.items).map(([id, it]) => ({ value: id, label: it.name, ...(me.wielded.includes(id) ? { note: 'held now' } : {}) }));
      return {
        target: { field: 'items', multiple: true, max: Math.min(LIMITS.items, Math.max(1, items.length)), label: 'Hold', options: items },
        check: items.length === 0 ? forbid(`${me.name} carries no items`) : yes,
      };
    }
    case 'Drop Item': {
      const held = me.wielded.flatMap((id) => {
        const it = own(me.items, id);
        return it === undefined ? [] : [{ value: id, label: it.name }];
      });
      return { choices: [{ field: 'item', label: 'Item', options: held }], check: held.length === 0 ? forbid(`${me.name} holds nothing`) : yes };
    }
    case 'Command': {
      // Once per turn per ally: 2 focus gives that ally one action now (003 Actions table).
      const side = a.combatant.side;
      const allies = othersInView(a).flatMap((c) => (c.side !== side ? [] : [{ value: c.id, label: own(sheets, c.id)?.name ?? c.name, side: 'ally' as const }]));
      const need = numSetting(a.world, 'teams.commandFocus');
      return {
        target: { field: 'targetId', multiple: false, aim: 'allies', options: allies },
        check: judge(allies.length === 0 ? forbid('no ally here to command') : yes, me.focus < need ? forbid(`Command needs ${need} focus (${me.name} has ${me.focus})`) : yes),
      };
    }
    case 'Ready an Action':
      // Ends the turn; the readied action waits for its trigger as the reaction.
      return {
        choices: [{ field: 'readiedAction', label: 'Readied action', options: READYABLE }],
        texts: [{ field: 'trigger', label: 'Trigger', value: 'a foe comes within reach', max: 200 }],
        check: yes,
      };
    case 'Fortify':
    case 'Resist':
    case 'Dodge': {
      // A defence test against an effect the GM names a difficulty for (focus for Resist, stamina otherwise).
      const resource = name === 'Resist' ? 'focus' : 'stamina';
      const cost = numSetting(a.world, 'teams.reactionCost');
      return {
        fixed: { characterId: a.combatant.id, reaction: name.toLowerCase() },
        choices: testChoices(me),
        numbers: [{ field: 'difficulty', label: 'Difficulty', min: 0, max: MAX_DIFFICULTY, value: 10 }],
        odds: { query: 'teams.testOdds', args: { characterId: a.combatant.id, defence: true }, pass: ['test', 'difficulty'] },
        check: judge(me[resource] < cost ? forbid(`${name} needs ${cost} ${resource} (${me.name} has ${me[resource]})`) : yes, canTest(me)),
      };
    }
    default:
      return null;
  }
}

export const teamsActions = actionsQuery(TEAMS_ECONOMY, build);
