// 003 ("Initiative and Rounds", "Surprise"): teams take turns in a fixed team
// order (initiating team, attacked team, then the GM's order); each team picks
// one member who has not acted; a team with nobody able left is skipped;
// members who could not act may act at the team's next pick once able.
// Surprise: only the surprising team and the unsurprisable act, alternating.
import { own } from '../../core/own.js';
import type { Json } from '../../core/types.js';
import { errR, okR } from '../state.js';
import type { EncounterState, Next, Sequencer } from '../types.js';
import { byJoin, eligible, field, sideSurprise } from './common.js';

interface TeamState { readonly order: readonly string[]; readonly last: string | null }

function teamState(enc: EncounterState): TeamState {
  const order = field(enc.seq, 'order');
  const last = field(enc.seq, 'last');
  return {
    order: Array.isArray(order) ? order.filter((x): x is string => typeof x === 'string') : [],
    last: typeof last === 'string' ? last : null,
  };
}

export function teamOf(enc: EncounterState, id: string): string {
  const t = field(own(enc.combatants, id)?.placement, 'team');
  return typeof t === 'string' ? t : (own(enc.combatants, id)?.side ?? '');
}

export function teamsSequencer(): Sequencer {
  return {
    id: 'teams',
    place(_enc, c, input) {
      const t = field(input, 'team') ?? c.side;
      if (typeof t !== 'string' || t.length === 0 || t.length > 64) return errR('BAD_TEAM', `combatant "${c.id}" needs a team name (1-64 characters)`, 'placement.team');
      return okR({ team: t });
    },
    setup(enc, params) {
      const present = [...new Set(enc.roster.map((id) => teamOf(enc, id)))];
      const given = field(params, 'teamOrder');
      const order: string[] = Array.isArray(given) ? given.filter((x): x is string => typeof x === 'string') : [];
      if (!Array.isArray(given) || order.length !== given.length) return errR('TEAM_ORDER', 'teams need { teamOrder: [initiating team, attacked team, ...others] }', 'params.teamOrder');
      if (new Set(order).size !== order.length) return errR('TEAM_ORDER', 'a team appears twice in teamOrder', 'params.teamOrder');
      for (const t of present) if (!order.includes(t)) return errR('TEAM_ORDER', `team "${t}" is missing from teamOrder`, 'params.teamOrder');
      return okR({ state: { order, last: null }, placements: {} });
    },
    surprise: sideSurprise,
    next(view): Next {
      const enc = view.enc;
      const st = teamState(enc);
      // Teams that joined after the start go last, in join order (GM may reorder by ending and restarting).
      const extra = [...new Set(enc.roster.map((id) => teamOf(enc, id)))].filter((t) => !st.order.includes(t));
      const order = [...st.order, ...extra];
      const n = order.length;
      const startAt = st.last === null ? 0 : order.indexOf(st.last) + 1;
      for (let k = 0; k < n; k++) {
        const team = order[(startAt + k) % n]!;
        const options = enc.roster.filter((id) => teamOf(enc, id) === team && eligible(view, id)).sort(byJoin(enc));
        if (options.length === 0) continue;
        if (options.length === 1) return { kind: 'actor', id: options[0]! };
        const pcTeam = options.some((id) => own(enc.combatants, id)?.kind === 'pc');
        return {
          kind: 'decision',
          decision: {
            prompt: `Team ${team}: choose who acts`,
            chooser: pcTeam ? { kind: 'players', side: team } : { kind: 'gm' },
            options,
            default: pcTeam ? null : options[0]!,
          },
        };
      }
      return { kind: 'roundOver' };
    },
    onTurnStarted(enc, id) {
      const st = teamState(enc);
      return { order: [...st.order], last: teamOf(enc, id) } as Json;
    },
    onRoundStarted(enc) {
      return { order: [...teamState(enc).order], last: null } as Json;
    },
    project(enc, shown) {
      // Players see the teams that have someone they can see; `last` falls back to the
      // nearest earlier shown team, so their on-deck still starts from the right place.
      const st = teamState(enc);
      const seen = new Set(enc.roster.filter(shown).map((id) => teamOf(enc, id)));
      const order = st.order.filter((t) => seen.has(t));
      let last: string | null = null;
      const at = st.last === null ? -1 : st.order.indexOf(st.last);
      for (let k = 0; at >= 0 && k < st.order.length && last === null; k++) {
        const t = st.order[(at - k + st.order.length) % st.order.length]!;
        if (seen.has(t)) last = t;
      }
      if (at < 0 && st.last !== null && seen.has(st.last)) last = st.last;
      // Each shown combatant's team, and nothing else a placement may hold (ADR 25).
      const placements: Record<string, Json> = {};
      for (const id of Object.keys(enc.combatants)) {
        const t = field(own(enc.combatants, id)?.placement, 'team');
        if (shown(id) && typeof t === 'string') placements[id] = { team: t };
      }
      return { state: { order, last }, placements };
    },
  };
}
