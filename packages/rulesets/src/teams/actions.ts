// teams.actions: what the acting creature may do now (003 "Actions in
// Combat": three actions a turn and one reaction; the Actions, Reactions and
// Free Actions tables). Attack is teams.attack with the sheet's own weapons;
// every other row is the kernel's encounter.spend, offered only when the
// kernel's planner says the economy can pay for it.
import { TEAMS_ACTIONS, TEAMS_ECONOMY, ok, own, teamsActionRequest, type Json, type Result } from '@tablekeeper/engine';
import { action, actionsQuery, affordable, forbid, judge, othersInView, type Actor, type ActionOption, type TurnAction } from '../actions.js';
import type { Sheet } from './sheet.js';
import { getTeams } from './state.js';

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
  if (me !== undefined) {
    const weapons: ActionOption[] = Object.entries(me.items)
      .filter(([, it]) => it.weapon !== null)
      .map(([id, it]) => ({ value: id, label: it.name }));
    // Sheets are keyed by combatant id; a secret sheet is a name only in a player's view, still a target.
    const targets: ActionOption[] = othersInView(a).flatMap((c) => {
      const s = own(sheets, c.id);
      return s === undefined ? [] : [{ value: c.id, label: s.name }];
    });
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
        ...judge(
          weapons.length === 0 ? forbid(`${me.name} carries no weapon`) : yes,
          targets.length === 0 ? forbid('nobody this view can see to attack') : yes,
          affordable(a, 'action'),
        ),
      }),
    );
  }
  for (const row of TEAMS_ACTIONS) {
    if (row.name === 'Attack') continue;
    // A reaction answers something (an attack, a test): spent from this list it did nothing (GM review, issue 20).
    if (row.kind === 'reaction') continue;
    const req = teamsActionRequest(row.name, a.onTurn);
    if (req === null) continue;
    const { kind, cost, ...extra } = req;
    const id = row.name.toLowerCase().replace(/\s+/g, '-');
    const acted = me === undefined ? null : actRow(a, me, row.name);
    if (acted !== null) {
      out.push(action({ id, label: row.name, cost: costWords(kind, cost), command: 'teams.act', fixed: { characterId: a.combatant.id, action: row.name }, ...acted, ...judge(acted.check, affordable(a, kind, cost, extra)) }));
      continue;
    }
    const fixed: { [k: string]: Json } = { characterId: a.combatant.id, kind: req.kind, cost: req.cost, label: row.name };
    if (req.tag !== undefined) fixed['tag'] = req.tag;
    if (req.limit !== undefined) fixed['limit'] = req.limit;
    if (req.requires !== undefined) fixed['requires'] = req.requires;
    out.push(action({ id, label: row.name, cost: costWords(kind, cost), command: 'encounter.spend', fixed, ...affordable(a, kind, cost, extra) }));
  }
  return ok(out);
}

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
        return s === undefined || s.conscious || s.dead ? [] : [{ value: c.id, label: s.name }];
      });
      const attributes = Object.keys(me.attributes).map((k) => ({ value: k, label: k }));
      const skills = Object.keys(me.skills).map((k) => ({ value: k, label: k }));
      return {
        target: { field: 'targetId', multiple: false, options: down },
        choices: [
          { field: 'test.attribute', label: 'Attribute', options: attributes },
          { field: 'test.skill', label: 'Skill', options: skills },
        ],
        check: judge(
          down.length === 0 ? forbid('nobody here is unconscious') : yes,
          attributes.length === 0 || skills.length === 0 ? forbid(`${me.name}'s sheet needs an attribute and a skill for the test`) : yes,
        ),
      };
    }
    default:
      return null;
  }
}

export const teamsActions = actionsQuery(TEAMS_ECONOMY, build);
