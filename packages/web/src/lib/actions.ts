// The actions panel's pure side (ADR 23): the ruleset's `<ns>.actions` answer
// read defensively, the payload a filled form sends, the odds query it asks
// first, and the odds in words. Nothing here decides a rule: what is allowed,
// what it costs and whom it may target all come from the answer.
import { moduleStatesOf, type EncounterState, type Json, type World } from '@tablekeeper/engine';
import { oddsShapeOf, type ActionsAnswer, type TurnAction } from '@tablekeeper/rulesets/browser';
import type { ClientCommand } from '../net/codec.ts';
import { describeOdds, percent } from './attack.ts';
import { defaultTarget, orderTargets, refusedTarget } from './targets.ts';

// The answer's shape is the rulesets' own (type-only: the browser entry brings no engine code along).
export type { ActionOption as Option, ActionNumber as NumberField, ActionsAnswer, TurnAction } from '@tablekeeper/rulesets/browser';
import type { ActionOption as Option } from '@tablekeeper/rulesets/browser';

type Obj = { readonly [k: string]: Json };
const obj = (x: Json | undefined): Obj | null => (x !== null && x !== undefined && typeof x === 'object' && !Array.isArray(x) ? x : null);

/** The answer, or null when it is not the declared shape (an older server). */
export function readActions(result: Json): ActionsAnswer | null {
  const r = obj(result);
  if (r === null || typeof r['combatantId'] !== 'string' || !Array.isArray(r['actions'])) return null;
  const answer = r as unknown as ActionsAnswer;
  // An older server sends no flags or texts: read them as none, here only.
  return { ...answer, actions: answer.actions.map((a) => ({ ...a, flags: (a.flags as TurnAction['flags'] | undefined) ?? [], texts: (a.texts as TurnAction['texts'] | undefined) ?? [] })) };
}

/** What the person picked: a target (and more, where the action takes several), a value per choice, a number per field (as typed). */
export interface ActionForm {
  readonly target: string;
  /** Further targets, beside `target`, for an action that takes up to `target.max`. */
  readonly also: readonly string[];
  readonly values: { readonly [field: string]: string };
  readonly flags: { readonly [field: string]: boolean };
}

/** The target picker's options in the order shown: living foes first, the downed and dead last (lib/targets). */
export const targetOptionsOf = (a: TurnAction): readonly Option[] => (a.target === null ? [] : orderTargets(a.target.options, { aim: a.target.aim ?? 'foes' }));

type Choice = TurnAction['choices'][number];

/** A choice's picks: one value, or for a several-pick choice (`list`) its comma-joined ticks ('' is none). */
export const picksOf = (c: Choice, v: string): string[] => (c.list === true ? v.split(',').filter((x) => x !== '') : [v]);

/** Whether every pick in a choice's value is still offered. */
const offeredPicks = (c: Choice, v: string): boolean => picksOf(c, v).every((x) => c.options.some((o) => o.value === x));

/** A several-pick choice's value with `value` ticked or unticked, in the options' order. */
export function tickPick(c: Choice, v: string, value: string, on: boolean): string {
  const kept = picksOf(c, v).filter((x) => x !== value);
  const next = on ? [...kept, value] : kept;
  return c.options.filter((o) => next.includes(o.value)).map((o) => o.value).join(',');
}

/** The form's starting state: the first target the engine would accept, each choice's first option, each number's default. */
export function initialForm(a: TurnAction): ActionForm {
  const values: { [k: string]: string } = {};
  for (const c of a.choices) values[c.field] = c.options[0]?.value ?? '';
  for (const n of a.numbers) values[n.field] = String(n.value);
  for (const t of a.texts) values[t.field] = t.value;
  const flags: { [k: string]: boolean } = {};
  for (const x of a.flags) flags[x.field] = x.value;
  const picked = (a.target?.picked ?? []).filter((t) => a.target!.options.some((o) => o.value === t)).slice(0, maxTargets(a));
  return pickTarget(a, { target: '', also: picked.slice(1), values, flags }, picked[0] ?? (a.target === null ? '' : defaultTarget(a.target.options, { aim: a.target.aim ?? 'foes' })));
}

/** The form with `target` picked: the numbers the target brings (its defence) replace what was typed. */
export function pickTarget(a: TurnAction, f: ActionForm, target: string): ActionForm {
  const sets = a.target?.options.find((o) => o.value === target)?.sets ?? {};
  const values: { [k: string]: string } = { ...f.values };
  for (const n of a.numbers) if (typeof sets[n.field] === 'number') values[n.field] = String(sets[n.field]);
  return { ...f, target, also: f.also.filter((t) => t !== target), values };
}

/** How many targets the action takes at most. */
export const maxTargets = (a: TurnAction): number => (a.target?.multiple === true ? (a.target.max ?? 1) : 1);

/** The form with a further target ticked or unticked. */
export function toggleAlso(f: ActionForm, target: string, on: boolean): ActionForm {
  const rest = f.also.filter((t) => t !== target);
  return { ...f, also: on && target !== f.target ? [...rest, target] : rest };
}

/** Every target picked, the first first (only ones still offered). */
export function targetsOf(a: TurnAction, f: ActionForm): string[] {
  if (a.target === null) return [];
  const offered = (t: string) => a.target!.options.some((o) => o.value === t);
  // An offered empty value ("nobody": a Move that leaves no one's reach) picks no one.
  return [f.target, ...f.also.filter((t) => t !== f.target)].filter((t) => t !== '' && offered(t));
}

/**
 * Whether an open action form stays on screen: while its action may be taken;
 * once it may not, only when it has rolled in the turn it was opened (its result
 * is news then); never once its creature is dying, whose only move is a death save
 * (002 "Dying and Death"). Review 10: a dying PC's phone kept last turn's Attack;
 * review 11: an unrolled Attack stayed, odds and all, in the turn its PC fell (the
 * dying flag is OSR's only, so the engine's "not allowed" is what closes it).
 */
export function formStays(a: Pick<TurnAction, 'id' | 'allowed'>, openedAt: number | null, turnSerial: number, dying: boolean, rolled: boolean): boolean {
  if (dying && a.id !== 'deathSave') return false;
  return a.allowed || (rolled && openedAt === turnSerial);
}

/** A form kept across answers: its choices while they are still offered, else the new defaults. */
export function keepForm(a: TurnAction, f: ActionForm | undefined): ActionForm {
  const init = initialForm(a);
  if (f === undefined) return init;
  const values: { [k: string]: string } = { ...init.values };
  for (const c of a.choices) if (f.values[c.field] !== undefined && offeredPicks(c, f.values[c.field]!)) values[c.field] = f.values[c.field]!;
  for (const n of [...a.numbers, ...a.texts]) if (f.values[n.field] !== undefined) values[n.field] = f.values[n.field]!;
  const flags: { [k: string]: boolean } = { ...init.flags };
  for (const x of a.flags) if (f.flags[x.field] !== undefined) flags[x.field] = f.flags[x.field]!;
  // A target no longer offered gives way to the first one, with the numbers it brings.
  const also = f.also.filter((t) => a.target?.options.some((o) => o.value === t) === true);
  return a.target?.options.some((o) => o.value === f.target) ? { target: f.target, also, values, flags } : pickTarget(a, { target: '', also, values, flags }, init.target);
}

/** The form for the next roll ("Again"): the same picks, but a target the engine would now refuse (fallen) gives way to the default. */
export function againForm(a: TurnAction, f: ActionForm): ActionForm {
  const kept = keepForm(a, f);
  const now = a.target?.options.find((o) => o.value === kept.target);
  if (a.target === null || now === undefined || !refusedTarget(now)) return kept;
  const next = defaultTarget(a.target.options, { aim: a.target.aim ?? 'foes' });
  return next === kept.target ? kept : pickTarget(a, kept, next);
}

/** A dotted field ("test.attribute") fills a nested object: teams tests are { attribute, skill }. */
function put(out: { [k: string]: Json }, field: string, v: Json): void {
  const [head, ...rest] = field.split('.');
  if (rest.length === 0 || head === undefined) {
    out[field] = v;
    return;
  }
  const inner = out[head];
  const obj: { [k: string]: Json } = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? { ...inner } : {};
  put(obj, rest.join('.'), v);
  out[head] = obj;
}

/** The command's fields, or a sentence naming what to fix. */
export function payloadOf(a: TurnAction, f: ActionForm): { ok: true; value: { [k: string]: Json } } | { ok: false; message: string } {
  const out: { [k: string]: Json } = { ...a.fixed };
  if (a.target !== null) {
    if (!a.target.options.some((o) => o.value === f.target)) return { ok: false, message: 'Pick a target.' };
    const all = targetsOf(a, f);
    const max = maxTargets(a);
    if (all.length > max) return { ok: false, message: `${a.label} takes at most ${max} target${max === 1 ? '' : 's'}: untick ${all.length - max}.` };
    out[a.target.field] = a.target.multiple ? all : f.target;
  }
  for (const c of a.choices) {
    const v = f.values[c.field] ?? '';
    if (!offeredPicks(c, v)) return { ok: false, message: `Pick ${c.label.toLowerCase()}.` };
    // An offered empty value ("none") leaves the field out; a numeric picker sends its number (advantage in words);
    // a several-pick one its ticks as a list (an OSR check's light tags), none ticked leaving it out.
    if (v !== '') put(out, c.field, c.numeric === true ? Number(v) : c.list === true ? picksOf(c, v) : v);
  }
  for (const n of a.numbers) {
    const text = (f.values[n.field] ?? '').trim();
    const v = Number(text);
    if (text === '' || !Number.isInteger(v) || v < n.min || v > n.max) return { ok: false, message: `${n.label} must be a whole number from ${n.min} to ${n.max}.` };
    out[n.field] = v;
  }
  for (const t of a.texts) {
    // Shown, not sent: the server takes it from the sheet (a player's damage on a hit, ADR 56).
    if (t.readOnly === true) continue;
    const v = (f.values[t.field] ?? '').trim();
    if (v.length > t.max) return { ok: false, message: `${t.label} takes at most ${t.max} characters.` };
    if (v !== '') out[t.field] = v;
  }
  for (const x of a.flags) out[x.field] = f.flags[x.field] === true;
  return { ok: true, value: out };
}

export function commandOf(a: TurnAction, f: ActionForm): ClientCommand | null {
  const p = payloadOf(a, f);
  return p.ok ? ({ type: a.command, ...p.value } as ClientCommand) : null;
}

/** One odds question per target picked (each target is rolled on its own), with the target it is about. */
export function oddsQueriesOf(a: TurnAction, f: ActionForm): { target: string; name: string; args: { [k: string]: Json } }[] {
  const q = oddsQueryOf(a, f);
  if (q === null || a.target === null) return q === null ? [] : [{ target: '', ...q }];
  const field = a.target.field;
  // One roll for every pick (a disengage from two enemies): one question with the whole list.
  if (a.odds?.together === true || (a.odds?.togetherWhen !== undefined && f.flags[a.odds.togetherWhen] === true)) return [{ target: '', ...q }];
  return targetsOf(a, f).map((t) => ({ target: t, name: q.name, args: { ...q.args, ...(Object.hasOwn(q.args, field) ? { [field]: a.target!.multiple ? [t] : t } : {}) } }));
}

/** The odds question for this form, or null (no odds query, or the form is incomplete). */
export function oddsQueryOf(a: TurnAction, f: ActionForm): { name: string; args: { [k: string]: Json } } | null {
  if (a.odds === null) return null;
  const p = payloadOf(a, f);
  if (!p.ok) return null;
  const args: { [k: string]: Json } = { ...a.odds.args };
  for (const k of a.odds.pass) {
    const v = p.value[k];
    if (v === undefined) continue;
    args[k] = typeof v === 'number' ? v + (a.odds.shift?.[k] ?? 0) : v;
  }
  return { name: a.odds.query, args };
}

/** An action that needs nothing picked: one tap sends it. */
/**
 * Why an action is no longer offered, said after its own roll: what the roll used up is news, not a refusal
 * ("Cleave is now expended (recharge 11+ at a quick rest)."; review 7).
 */
export function afterRollWords(reason: string): string {
  const t = reason.trim().replace(/^(.+?) is expended\b/, '$1 is now expended');
  const capital = t.length === 0 ? t : t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Whether an open form's purpose is gone, in words: the caller's own (the ally it was for is stable or dead), else,
 * after a roll here, an action with nobody left to act on (review 8: the phone's Stabilize stayed open on its result).
 */
export function formDone(action: TurnAction, rolled: boolean, said: string | null = null): string | null {
  if (said !== null) return said;
  if (!rolled || action.target === null || action.target.options.length > 0) return null;
  return action.reason !== null ? afterRollWords(action.reason) : `Nobody is left for ${action.label}.`;
}

export const oneTap = (a: TurnAction): boolean => a.target === null && a.choices.length === 0 && a.numbers.length === 0 && a.flags.length === 0 && a.texts.length === 0 && a.odds === null;

/** The odds in words: a headline and the numbers behind it, by the shape the query's ruleset declares (ADR 58). */
export function describeActionOdds(query: string, result: Json): { headline: string; detail: string } | null {
  const r = obj(result);
  if (r === null) return null;
  const shape = oddsShapeOf(query);
  switch (shape) {
    case 'attack3d6':
    case 'attackLuck':
    case 'attackD20':
      return describeOdds(shape, result);
    case 'adversaryD20': {
      if (typeof r['hit'] !== 'number') return null;
      const m = Number(r['attack']);
      return { headline: `${percent(r['hit'])} to hit · ${percent(Number(r['crit']))} critical`, detail: `d20 ${m < 0 ? '-' : '+'}${String(Math.abs(m))} vs Evasion ${String(r['evasion'])}${typeof r['damage'] === 'string' && r['damage'] !== '' ? ` · ${r['damage']} damage` : ''}` };
    }
    case 'check3d6': {
      if (typeof r['pass'] !== 'number') return null;
      const crit = typeof r['crit'] === 'number' ? ` · ${percent(r['crit'])} crit` : '';
      const why = Array.isArray(r['why']) ? r['why'].filter((x): x is string => typeof x === 'string').join('; ') : `${String(r['target'])}+ on 3d6`;
      return { headline: `${percent(r['pass'])} to succeed${crit}`, detail: why };
    }
    case 'testDice':
      return typeof r['pass'] === 'number' ? { headline: `${percent(r['pass'])} to succeed`, detail: `needs ${String(r['difficulty'])} or more (attribute die + skill die; +4 on a luck 20)` } : null;
    case 'killingStrike':
      return typeof r['kill'] === 'number' ? { headline: `${percent(r['kill'])} to kill`, detail: `${String(r['attribute'])} + combat with advantage against constitution ${String(r['difficulty'])}; if it fails, a sneak attack follows` } : null;
    case 'defend': {
      if (typeof r['damage'] !== 'number') return null;
      const dur = obj(r['durability']);
      const wear = dur !== null && typeof r['item'] === 'string' ? `; ${r['item']} durability ${String(dur['from'])} to ${String(dur['to'])}${dur['to'] === 0 ? ' (breaks)' : ''}` : '';
      if (r['reaction'] === 'dodge') return { headline: `${percent(Number(r['avoid']))} to avoid it`, detail: `a test against ${String(r['difficulty'])}; if it fails, takes ${r['damage']} damage` };
      return { headline: `Takes ${r['damage']} damage`, detail: `${String(r['raw'])} ${String(r['damageType'])} before reduction${wear}` };
    }
    case 'scoreAttack': {
      if (typeof r['pass'] !== 'number') return null;
      const avg = typeof r['averageDamage'] === 'number' ? ` (${String(Math.round(r['averageDamage'] * 10) / 10)} on average)` : '';
      return { headline: `${percent(r['pass'])} to hit`, detail: `a Score of ${String(r['defense'])} or more (Defense ${String(r['defense'])})${typeof r['damage'] === 'string' ? ` · ${r['damage']} damage${avg}` : ' · no damage dice'}` };
    }
    case 'scoreTest':
      return typeof r['pass'] === 'number' ? { headline: `${percent(r['pass'])} to succeed`, detail: `fails on a Score of ${String(r['failAtOrBelow'])} or lower` } : null;
    case 'checkD20': {
      if (typeof r['pass'] !== 'number') return null;
      const m = Number(r['modifier']);
      // A trap's damage (001 "Traps", "Critical Failure"): the chance of taking it, and of a natural 1 doubling it.
      const d = obj(r['damage']);
      const hurt = d === null ? '' : ` · ${percent(Number(d['chance']))} to take ${String(d['dice'])} damage${Number(d['doubled']) > 0 ? ` (${percent(Number(d['doubled']))} doubled by a natural 1)` : ''}`;
      return { headline: `${percent(r['pass'])} to succeed${hurt}`, detail: `d20 ${m < 0 ? '-' : '+'}${String(Math.abs(m))} vs DC ${String(r['difficulty'])}` };
    }
    case 'moraleD20': {
      if (typeof r['pass'] !== 'number') return null;
      // 001 "Morale Checks": each part named, the monster's morale bonus included (the GM enters it on the stat block: 001 bases it on HD without a table).
      const signed = (n: number): string => `${n < 0 ? '-' : '+'}${String(Math.abs(n))}`;
      const prof = Number(r['proficiency']) !== 0 ? ` ${signed(Number(r['proficiency']))} proficiency` : '';
      return { headline: `${percent(r['pass'])} to stand and fight`, detail: `d20 ${signed(Number(r['wis']))} WIS${prof} ${signed(Number(r['moraleBonus']))} morale bonus vs DC ${String(r['difficulty'])}` };
    }
    case 'duality': {
      const outcomes = obj(r['outcomes']);
      if (typeof r['success'] === 'number' && outcomes !== null) {
        const n = (k: string) => (typeof outcomes[k] === 'number' ? (outcomes[k] as number) : 0);
        // The four outcomes as the GM's board names them (review 12 #9: a Hope/Fear split over every roll read as
        // contradicting the success chance above it); the critical, a success with Hope too, is in the headline.
        return { headline: `${percent(r['success'])} success · ${percent(n('critical'))} critical`, detail: `success with Hope ${percent(n('successWithHope'))} · with Fear ${percent(n('successWithFear'))} · failure with Hope ${percent(n('failureWithHope'))} · with Fear ${percent(n('failureWithFear'))}` };
      }
      // A difficulty the GM keeps secret: only the chances that need none (a foe's Difficulty the table keeps: the engine's why).
      return r['hidden'] === true ? { headline: `${percent(Number(r['critical']))} critical`, detail: `with Hope ${percent(Number(r['withHope']))} · with Fear ${percent(Number(r['withFear']))} · ${typeof r['why'] === 'string' ? r['why'] : 'the GM keeps the difficulty secret'}` } : null;
    }
    case null:
      return null;
  }
}

/**
 * What an actions answer reads, as values compared by identity (a delta
 * copies only what it changes): the turn, the actor's economy, the
 * combatants and conditions, the characters and each module's state but the
 * encounter's (whose other parts are listed). The log and the history are
 * left out, so a log line alone does not ask again. Always the same length.
 */
export function actionsInputs(world: World, enc: EncounterState, who: string | null): readonly unknown[] {
  const others = moduleStatesOf(world, ['encounter']);
  return [enc.current, enc.round, enc.turnSerial, enc.pending, enc.combatants, enc.conditions, enc.escalation, who === null ? null : enc.economy[who], world.characters, world.seats, world.settings, others.length, ...others.slice(0, MAX_MODULES), ...Array(Math.max(0, MAX_MODULES - others.length)).fill(null)];
}
// More modules than any ruleset has (core, countdowns, bestiary, sheet, the rules' own): keeps the list's length fixed.
const MAX_MODULES = 12;
