// Reducers for the team game's events: total, pure, never rolling. Each one
// also writes the log line, in our words, for the right audience.
import type { EngineEvent, Json, Reducer, World } from '@tablekeeper/engine';
import { appendLog, claimId, getEncounter, own } from '@tablekeeper/engine';
import { isBloodied, isHarmed } from './damage.js';
import type { Sheet } from './sheet.js';
import { audienceOf, getTeams, nameOf, type PendingAttack, updateSheet, updateTeams, without } from './state.js';

const s = (e: EngineEvent, k: string): string => String(e[k]);
const n = (e: EngineEvent, k: string): number => Number(e[k]);

function log(world: World, e: EngineEvent, ids: readonly (string | null | undefined)[], text: string, data?: Json): World {
  return appendLog(world, { audience: audienceOf(world, ids), kind: e.type, text, ...(data !== undefined ? { data } : {}) });
}

function roll(e: EngineEvent, k = 'roll'): { total: number; luck: number } {
  const r = e[k];
  if (r !== null && typeof r === 'object' && !Array.isArray(r)) return { total: Number(r['total']), luck: Number(r['luck']) };
  return { total: 0, luck: 0 };
}

export function statusWords(sh: Sheet): string {
  if (sh.dead) return 'dead';
  const w: string[] = [];
  if (!sh.conscious) w.push('unconscious');
  if (isHarmed(sh.endurance, sh.maxEndurance)) w.push('harmed');
  if (isBloodied(sh.health, sh.maxHealth)) w.push('bloodied');
  return w.length === 0 ? 'unhurt' : w.join(', ');
}

export const TEAMS_REDUCERS: { readonly [type: string]: Reducer } = {
  'teams.sheetSet': (world, e) => {
    const id = s(e, 'id');
    const w = updateTeams(world, (st) => ({ ...st, sheets: { ...st.sheets, [id]: e['sheet'] as unknown as Sheet } }));
    return log(w, e, [id], `${nameOf(w, id)}'s sheet was set.`);
  },
  'teams.sheetRemoved': (world, e) => {
    const id = s(e, 'id');
    const name = nameOf(world, id);
    const w = log(world, e, [id], `${name}'s sheet was removed.`);
    return updateTeams(w, (st) => ({ ...st, sheets: without(st.sheets, id), atRisk: without(st.atRisk, id) }));
  },
  'teams.attacked': (world, e) => {
    const attacker = s(e, 'attacker');
    const target = s(e, 'target');
    const round = n(e, 'round');
    let w = claimId(world, s(e, 'id'));
    w = updateTeams(w, (st) => {
      const prev = st.attackCounts[attacker];
      const count = prev !== undefined && prev.round === round ? prev.count + 1 : 1;
      return { ...st, attackCounts: { ...st.attackCounts, [attacker]: { round, count } } };
    });
    const r = roll(e);
    const astray = e['intended'] !== e['target'] ? ` The shot went astray (luck ${r.luck}) and ${nameOf(w, target)} became the target instead of ${nameOf(w, s(e, 'intended'))}.` : '';
    const pen = n(e, 'penalty') !== 0 ? ` (${n(e, 'penalty')} for earlier attacks this round)` : '';
    const verdict = e['critical'] === true ? `a critical hit (luck ${r.luck})` : e['hit'] === true ? 'a hit' : 'a miss';
    return log(w, e, [attacker, target, s(e, 'intended')], `${nameOf(w, attacker)} attacked ${nameOf(w, target)}: ${n(e, 'result')}${pen} against evasion ${n(e, 'evasion')}, ${verdict}.${astray}`);
  },
  'teams.hitPending': (world, e) => {
    const p = e['attack'] as unknown as PendingAttack;
    const w = updateTeams(world, (st) => ({ ...st, pending: { ...st.pending, [p.id]: p } }));
    return log(w, e, [p.attacker, p.target], `${nameOf(w, p.target)} may react before the damage lands.`);
  },
  'teams.intercepted': (world, e) => {
    const id = s(e, 'attack');
    const by = s(e, 'by');
    const from = s(e, 'from');
    const w = updateTeams(world, (st) => {
      const p = own(st.pending, id);
      if (p === undefined) return st;
      const pending = e['stillHits'] === true ? { ...st.pending, [id]: { ...p, target: by, intercepted: from, freeReaction: true } } : without(st.pending, id);
      return { ...st, pending };
    });
    return log(w, e, [by, from], `${nameOf(w, by)} stepped in front of ${nameOf(w, from)}${e['stillHits'] === true ? ' and is now the target' : `, and the attack (${n(e, 'result')}) missed against evasion ${n(e, 'evasion')}`}.`);
  },
  'teams.hitResolved': (world, e) => {
    const id = s(e, 'attack');
    const target = s(e, 'target');
    const w = updateTeams(world, (st) => ({ ...st, pending: without(st.pending, id) }));
    const who = nameOf(w, target);
    const item = typeof e['item'] === 'string' ? (own(getTeams(w).sheets, target)?.items[s(e, 'item')]?.name ?? s(e, 'item')) : '';
    let text: string;
    if (e['avoided'] === true) text = `${who} dodged the attack.`;
    else if (e['reaction'] === 'block') text = `${who} blocked with the ${item}: ${n(e, 'toItem')} to the ${item}, ${n(e, 'damage')} through.`;
    else if (e['reaction'] === 'parry') text = `${who} parried with the ${item} (+${n(e, 'parryBonus')}) and takes ${n(e, 'damage')} of ${n(e, 'raw')}.`;
    else text = `${who} takes ${n(e, 'damage')} of ${n(e, 'raw')} damage.`;
    return log(w, e, [target, s(e, 'attacker')], text);
  },
  'teams.dodgeRolled': (world, e) => {
    const id = s(e, 'id');
    return log(world, e, [id], `${nameOf(world, id)} tried to dodge: ${roll(e).total} against ${n(e, 'difficulty')}, ${e['success'] === true ? 'avoided' : 'failed'}.`);
  },
  'teams.resourceSpent': (world, e) => {
    const id = s(e, 'id');
    const res = s(e, 'resource');
    const to = n(e, 'to');
    const w = updateSheet(world, id, (sh) => (res === 'focus' ? { ...sh, focus: to } : { ...sh, stamina: to }));
    return log(w, e, [id], `${nameOf(w, id)} spent ${n(e, 'n')} ${res} (${to} left) for ${s(e, 'for')}.`);
  },
  'teams.itemDamaged': (world, e) => {
    const id = s(e, 'id');
    const item = s(e, 'item');
    const to = n(e, 'to');
    const w = updateSheet(world, id, (sh) => {
      const it = sh.items[item];
      return it === undefined ? sh : { ...sh, items: { ...sh.items, [item]: { ...it, durability: to } } };
    });
    const name = own(getTeams(w).sheets, id)?.items[item]?.name ?? item;
    return log(w, e, [id], `${nameOf(w, id)}'s ${name} took ${n(e, 'from') - to} durability damage (${to} left)${to === 0 ? ' and broke' : ''}.`);
  },
  'teams.damaged': (world, e) => {
    const id = s(e, 'id');
    const end = e['endurance'] as { to: number };
    const hp = e['health'] as { to: number };
    const w = updateSheet(world, id, (sh) => ({ ...sh, endurance: Number(end.to), health: Number(hp.to) }));
    const sh = own(getTeams(w).sheets, id);
    const type = typeof e['damageType'] === 'string' ? ` ${s(e, 'damageType')}` : '';
    return log(w, e, [id], `${nameOf(w, id)} took ${n(e, 'amount')}${type} damage: endurance ${end.to}, health ${hp.to}${sh === undefined ? '' : ` (${statusWords(sh)})`}.`);
  },
  'teams.consciousnessAtRisk': (world, e) => {
    const id = s(e, 'id');
    const w = updateTeams(world, (st) => ({ ...st, atRisk: { ...st.atRisk, [id]: { difficulty: n(e, 'difficulty') } } }));
    return log(w, e, [id], `${nameOf(w, id)} is missing more health than their constitution: fortify against ${n(e, 'difficulty')} or fall unconscious.`);
  },
  'teams.fortified': (world, e) => {
    const id = s(e, 'id');
    const w = updateTeams(world, (st) => ({ ...st, atRisk: without(st.atRisk, id) }));
    return log(w, e, [id], `${nameOf(w, id)} fortified: ${roll(e).total} against ${n(e, 'difficulty')}, ${e['success'] === true ? 'stays conscious' : 'fails'}.`);
  },
  'teams.fellUnconscious': (world, e) => {
    const id = s(e, 'id');
    const w = updateTeams(updateSheet(world, id, (sh) => ({ ...sh, conscious: false })), (st) => ({ ...st, atRisk: without(st.atRisk, id) }));
    return log(w, e, [id], `${nameOf(w, id)} fell unconscious (${s(e, 'reason')}).`);
  },
  'teams.deathRisked': (world, e) => {
    const id = s(e, 'id');
    const survived = e['survived'] === true;
    const w = updateSheet(world, id, (sh) => (survived ? { ...sh, deathDifficulty: n(e, 'newDifficulty') } : { ...sh, dead: true, conscious: false }));
    return log(w, e, [id], `${nameOf(w, id)} risked death: luck ${n(e, 'total')} against ${n(e, 'difficulty')}, ${survived ? `cheated death (next time ${n(e, 'newDifficulty')})` : 'died'}.`);
  },
  'teams.killed': (world, e) => {
    const id = s(e, 'target');
    const w = updateSheet(world, id, (sh) => ({ ...sh, dead: true, conscious: false }));
    return log(w, e, [id, s(e, 'attacker')], `${nameOf(w, s(e, 'attacker'))} killed ${nameOf(w, id)} with a killing strike (${roll(e).total} against constitution ${n(e, 'difficulty')}).`);
  },
  'teams.killingStrikeFailed': (world, e) =>
    log(world, e, [s(e, 'target'), s(e, 'attacker')], `${nameOf(world, s(e, 'attacker'))}'s killing strike failed (${roll(e).total} against constitution ${n(e, 'difficulty')}); a sneak attack follows.`),
  'teams.revived': (world, e) => {
    const id = s(e, 'target');
    const ok = e['success'] === true;
    const w = ok ? updateTeams(updateSheet(world, id, (sh) => ({ ...sh, conscious: true })), (st) => ({ ...st, atRisk: without(st.atRisk, id) })) : world;
    return log(w, e, [id, s(e, 'by')], `${nameOf(w, s(e, 'by'))} tried to resuscitate ${nameOf(w, id)}: ${roll(e).total} against ${n(e, 'difficulty')}, ${ok ? 'conscious again' : 'no luck'}.`);
  },
  'teams.tested': (world, e) => {
    const id = s(e, 'id');
    return log(world, e, [id], `${nameOf(world, id)}: ${s(e, 'label')} ${roll(e).total} against ${n(e, 'difficulty')}, ${e['success'] === true ? 'success' : 'failure'}.`);
  },
  'teams.acted': (world, e) => {
    const id = s(e, 'id');
    const extended = e['extended'] === true ? ` (started; ${n(e, 'remaining')} action(s) still to spend)` : '';
    const target = typeof e['target'] === 'string' ? ` on ${nameOf(world, s(e, 'target'))}` : '';
    return log(world, e, [id, typeof e['target'] === 'string' ? s(e, 'target') : null], `${nameOf(world, id)}: ${s(e, 'action')}${target}${extended}.`);
  },
  'teams.commanded': (world, e) => {
    const ally = s(e, 'ally');
    const by = s(e, 'by');
    const w = updateTeams(world, (st) => ({ ...st, commanded: { ...st.commanded, [ally]: { by, serial: getEncounter(world).turnSerial } } }));
    return log(w, e, [ally, by], `${nameOf(w, by)} commanded ${nameOf(w, ally)}, who may take one action now.`);
  },
  'teams.commandUsed': (world, e) => updateTeams(world, (st) => ({ ...st, commanded: without(st.commanded, s(e, 'ally')) })),
  'teams.brandished': (world, e) => {
    const id = s(e, 'id');
    const items = (e['items'] as string[]).map(String);
    const w = updateSheet(world, id, (sh) => ({ ...sh, wielded: items }));
    return log(w, e, [id], `${nameOf(w, id)} now holds ${items.length === 0 ? 'nothing' : items.map((i) => own(getTeams(w).sheets, id)?.items[i]?.name ?? i).join(' and ')}.`);
  },
  'teams.dropped': (world, e) => {
    const id = s(e, 'id');
    const item = s(e, 'item');
    return updateSheet(world, id, (sh) => ({ ...sh, wielded: sh.wielded.filter((x) => x !== item) }));
  },
  'teams.restored': (world, e) => {
    const id = s(e, 'id');
    const field = s(e, 'field');
    const to = n(e, 'to');
    const w = updateSheet(world, id, (sh) => ({ ...sh, [field]: to }));
    return log(w, e, [id], `${nameOf(w, id)}'s ${field} set to ${to} by the GM.`);
  },
};
