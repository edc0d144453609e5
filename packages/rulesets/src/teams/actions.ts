// teams.actions: what the acting creature may do now (003 "Actions in
// Combat": three actions a turn and one reaction; the Actions, Reactions and
// Free Actions tables). Attack is teams.attack with the sheet's own weapons;
// every other row is the kernel's encounter.spend, offered only when the
// kernel's planner says the economy can pay for it.
import { TEAMS_ACTIONS, TEAMS_ECONOMY, ok, own, teamsActionRequest, type Json, type Result } from '@tablekeeper/engine';
import { action, actionsQuery, affordable, forbid, judge, othersInView, type Actor, type ActionOption, type TurnAction } from '../actions.js';
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
    const req = teamsActionRequest(row.name, a.onTurn);
    if (req === null) continue;
    const fixed: { [k: string]: Json } = { characterId: a.combatant.id, kind: req.kind, cost: req.cost, label: row.name };
    if (req.tag !== undefined) fixed['tag'] = req.tag;
    if (req.limit !== undefined) fixed['limit'] = req.limit;
    if (req.requires !== undefined) fixed['requires'] = req.requires;
    const { kind, cost, ...extra } = req;
    out.push(action({ id: row.name.toLowerCase().replace(/\s+/g, '-'), label: row.name, cost: costWords(kind, cost), command: 'encounter.spend', fixed, ...affordable(a, kind, cost, extra) }));
  }
  return ok(out);
}

export const teamsActions = actionsQuery(TEAMS_ECONOMY, build);
