// Odds before the roll for the 36th Way's checks that are not attacks (review 9:
// Disengage and death saves rolled with no odds shown), and the opportunity
// attacks a creature may answer a provocation with (002 "Opportunity Attacks":
// a free Basic Melee Attack the engaged enemy may take or let go).
import { getEncounter, own, type Json, type Viewer, type World } from '@tablekeeper/engine';
import { asJson } from '@tablekeeper/engine/events';
import { action, type TurnAction } from '../actions.js';
import { opportunityAttackOf } from './combat.js';
import { controls, hasCondition, inEncounter, saveAdvantage, type Kit } from './context.js';
import { disengageCheck } from './movement.js';
import { rollOdds } from './odds.js';
import { engagedEnemies } from './positioning.js';
import { errR, okR, type R } from './result.js';
import { clampNet } from './roll.js';
import { numSetting } from './settings.js';
import { getTsw, type Sheet } from './state.js';

const FORBIDDEN_ASK = 'only the GM or the player of that character may ask this';

function sheetOf(world: World, viewer: Viewer, id: string): R<Sheet> {
  const s = own(getTsw(world).sheets, id);
  if (s === undefined) return errR('NOT_FOUND', 'no 36th Way sheet for that creature', 'characterId');
  if (!controls(world, viewer, s.id)) return errR('FORBIDDEN', FORBIDDEN_ASK, 'characterId');
  return okR(s);
}

const advantageWords = (net: number): string => (net > 0 ? `${net} Advantage: ${3 + net}d6, the highest 3 count` : `${-net} Disadvantage: ${3 - net}d6, the lowest 3 count`);

/** 36th-way.deathSaveOdds: the next death save (or Last Gasp save), the first save's Disadvantage included. */
export function deathSaveOdds(kit: Kit, world: World, args: { readonly characterId: string }, viewer: Viewer): R<Json> {
  const s = sheetOf(world, viewer, args.characterId);
  if (!s.ok) return s;
  const d = s.value.dying;
  if (d === null) return errR('NOT_DYING', `${s.value.name} is not dying`, 'characterId');
  const first = d.savesRolled === 0 ? d.firstSaveDisadvantage : 0;
  const net = clampNet(world, saveAdvantage(kit, world, s.value.id) - first);
  const target = numSetting(world, d.lastGasp !== null ? '36th-way.lastGaspSaveTarget' : '36th-way.deathSaveTarget');
  const critAt = Math.max(target, numSetting(world, '36th-way.saveCritAt'));
  const why = [`${target}+ on 3d6`, ...(first > 0 ? [`first death save: ${first} Disadvantage (dropped by a crit or to -half HP)`] : []), ...(net !== 0 ? [advantageWords(net)] : []), `natural ${critAt}+ is a crit: heal and act at once`];
  return okR({ pass: rollOdds(net, target, 0, world), crit: rollOdds(net, critAt, 0, world), target, net, why });
}

/**
 * 36th-way.checkOdds: a skill check or a Dicey Move (002 "Dicey Moves": a skill check as a move action),
 * 3d6 + bonus against the GM's Difficulty, as the commands roll it (sneaking while Invisible adds its Advantage).
 */
export function checkOdds(kit: Kit, world: World, args: { readonly characterId: string; readonly difficulty: number; readonly bonus?: number | undefined; readonly advantage?: number | undefined; readonly sneak?: boolean | undefined }, viewer: Viewer): R<Json> {
  const s = sheetOf(world, viewer, args.characterId);
  if (!s.ok) return s;
  const bonus = args.bonus ?? 0;
  const sneaking = args.sneak === true && inEncounter(world, s.value.id) ? kit.netEffect(world, s.value.id, 'sneak.advantage') : 0;
  const net = clampNet(world, (args.advantage ?? 0) + sneaking);
  const sign = bonus < 0 ? '-' : '+';
  const why = [`3d6 ${sign}${Math.abs(bonus)} vs Difficulty ${args.difficulty}: a natural ${args.difficulty - bonus}+ succeeds`, ...(sneaking !== 0 ? [`sneaking while Invisible: ${sneaking} Advantage`] : []), ...(net !== 0 ? [advantageWords(net)] : [])];
  return okR({ pass: rollOdds(net, args.difficulty, bonus, world), crit: null, target: args.difficulty, net, why });
}

/** 36th-way.grantSaveOdds: the Last Gasp save an ally grants (002 "Last Gasp Saves"), asked by whoever plays the helper. */
export function grantSaveOdds(kit: Kit, world: World, args: { readonly helperId: string; readonly targetId: string }, viewer: Viewer): R<Json> {
  const h = sheetOf(world, viewer, args.helperId);
  if (!h.ok) return { ...h, error: { ...h.error, path: 'helperId' } };
  const t = own(getTsw(world).sheets, args.targetId);
  if (t === undefined) return errR('NOT_FOUND', 'no 36th Way sheet for that creature', 'targetId');
  if (t.dying?.lastGasp == null) return errR('NOT_LAST_GASP', `${t.name} is not making Last Gasp saves`, 'targetId');
  const o = deathSaveOdds(kit, world, { characterId: t.id }, { role: 'gm' });
  if (!o.ok) return o;
  const v = o.value as { [k: string]: Json };
  return okR({ ...v, why: [...(v['why'] as string[]), 'a failure does not count against the four'] });
}

/**
 * Why `ability` cannot be sustained now, or null (002 "Ability Entries", Sustain: the roll keeps it going past
 * the end of a turn in which it was not started). The command, its odds and the actions list read the same.
 */
export function sustainRefusal(world: World, s: Sheet, ability: string, o: { readonly sameTurn: boolean } = { sameTurn: true }): { readonly code: string; readonly message: string } | null {
  const a = own(s.abilities, ability);
  if (a === undefined || a.sustain === null) return { code: 'NOT_SUSTAINABLE', message: `${JSON.stringify(ability)} is not a sustained ability of ${s.name}` };
  const use = own(s.uses, a.id);
  if (use?.activeTurn == null) return { code: 'NOT_ACTIVE', message: `${a.name} is not active: use it first` };
  // Started or sustained this very turn, it lasts to the turn's end anyway: a roll now would only spend the action.
  // Advice for the list only: the command still takes it, as tables stored before this did (the namespaces fixture).
  const enc = getEncounter(world);
  if (o.sameTurn && enc.active && use.activeTurn === enc.turnSerial) return { code: 'ALREADY_SUSTAINED', message: `${a.name} is already going this turn: sustain it on a later turn` };
  return null;
}

/** 36th-way.sustainOdds: the Sustain roll (3d6, no Advantage, as the command rolls it) for an active ability. */
export function sustainOdds(world: World, args: { readonly characterId: string; readonly ability: string }, viewer: Viewer): R<Json> {
  const s = sheetOf(world, viewer, args.characterId);
  if (!s.ok) return s;
  const why = sustainRefusal(world, s.value, args.ability);
  if (why !== null && why.code === 'NOT_SUSTAINABLE') return errR(why.code, why.message, 'ability');
  const a = s.value.abilities[args.ability]!;
  const target = a.sustain!;
  return okR({ pass: rollOdds(0, target, 0, world), crit: null, target, net: 0, why: [`Sustain ${target}+ on 3d6 with ${a.action === 'interrupt' || a.action === 'free' ? 'an' : 'a'} ${a.action} action (as starting it took); otherwise ${a.name} ends with the turn`] });
}

/** 36th-way.disengageOdds: a disengage check from the enemies named (default every engaged one). */
export function disengageOdds(world: World, args: { readonly characterId: string; readonly from?: readonly string[] | undefined; readonly advantage?: number | undefined }, viewer: Viewer): R<Json> {
  const s = sheetOf(world, viewer, args.characterId);
  if (!s.ok) return s;
  const all = engagedEnemies(world, s.value.id);
  const from = [...new Set(args.from ?? all)];
  if (from.length === 0 || !from.every((x) => all.includes(x))) return errR('NOT_ENGAGED', `pick enemies engaged with ${s.value.name}`, 'from');
  const c = disengageCheck(world, s.value, from, args.advantage ?? 0);
  const net = clampNet(world, c.net);
  const more = from.length - 1;
  const why = [`${c.target}+ on 3d6${more > 0 ? ` (${c.target - more}, +1 for each of ${more} more ${more === 1 ? 'enemy' : 'enemies'})` : ''}`, ...(c.grabbed ? ['Grabbed by one of them: 1 Disadvantage'] : []), ...(net !== 0 ? [advantageWords(net)] : [])];
  return okR({ pass: rollOdds(net, c.target, 0, world), crit: null, target: c.target, net, why });
}

/** 36th-way.reactions: each open provocation this creature may answer with an opportunity attack, or let pass. */
export function opportunityPrompts(world: World, args: { readonly characterId: string }, viewer: Viewer): R<Json> {
  const s = sheetOf(world, viewer, args.characterId);
  if (!s.ok) return s;
  const me = s.value;
  const sheets = getTsw(world).sheets;
  const prompts = getTsw(world)
    .provocations.filter((p) => p.against.includes(me.id) && own(sheets, p.by) !== undefined)
    .map((p) => {
      const by = own(sheets, p.by)!;
      const blocked = me.dead || me.dying !== null || me.unconscious ? `${me.name} cannot act` : me.stance !== 'melee' ? `${me.name} is no longer in the melee stance` : hasCondition(world, me.id, 'grabbed') ? `${me.name} is Grabbed` : null;
      const atk = opportunityAttackOf(me);
      const take: TurnAction = action({
        id: 'opportunity',
        label: `Opportunity attack on ${by.name}`,
        cost: atk === undefined ? 'free action, a basic melee attack' : 'free action, its first melee attack',
        command: '36th-way.attack',
        fixed: { attackerId: me.id, opportunity: p.id, targetIds: [by.id] },
        numbers: [
          { field: 'advantage', label: 'Advantage (±)', min: -6, max: 6, value: 0 },
          { field: 'bonus', label: 'Bonus', min: -30, max: 30, value: 0 },
        ],
        odds: { query: '36th-way.attackOdds', args: { attackerId: me.id, targetIds: [by.id], opportunity: p.id }, pass: ['advantage', 'bonus'] },
        allowed: blocked === null,
        reason: blocked,
      });
      const decline: TurnAction = action({ id: 'decline', label: `Let ${by.name} go`, cost: 'no attack', command: '36th-way.declineOpportunity', fixed: { attackerId: me.id, opportunity: p.id } });
      return { id: p.id, kind: 'opportunity', text: `${by.name} ${p.reason}: ${me.name} may make an opportunity attack.`, actions: [take, decline] };
    });
  return okR(asJson({ characterId: me.id, name: me.name, prompts }));
}
