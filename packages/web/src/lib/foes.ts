// Foes are targets everywhere (issue 20). A ruleset's attack names what it
// rolls against: OSR a character (its AC), the 36th Way and teams a sheet
// keyed by combatant (defences, evasion). A foe typed on the tracker or added
// from the bestiary is a name and a few numbers; this gives it what its
// ruleset's attack reads, from quick stats typed when adding it or its stat
// block, with the foe's own visibility (a hidden foe's sheet stays hidden).
import type { Combatant, Json, World } from '@tablekeeper/engine';
import { capabilitiesOf, foeSheetCommandOf, foeTargetOf, quickDice, quickStatsOf } from '@tablekeeper/rulesets/browser';
import type { ClientCommand, Rejection } from '../net/codec.ts';
import type { Draft, Parsed } from './initiative.ts';
import { hasSheet } from './sheetEditor.ts';

// The quick stats and how a foe becomes a target are the ruleset's (rulesets/src/foe-sheets.ts, issue 17).
export { quickStatsOf, type QuickStat } from '@tablekeeper/rulesets/browser';

/** The typed quick stats as numbers (dice as their text), or what to fix; empty boxes are left out. */
export function readQuickStats(rulesetId: string, typed: { readonly [key: string]: string }): Parsed<{ [key: string]: number | string }> {
  const out: { [key: string]: number | string } = {};
  for (const q of quickStatsOf(rulesetId)) {
    const t = (typed[q.key] ?? '').trim();
    if (t === '') continue;
    if (q.dice === true) {
      const d = quickDice(t);
      if (!d.ok) return { ok: false, message: `${q.label} ${d.why}` };
      out[q.key] = d.text;
      continue;
    }
    const n = Number(t);
    if (!Number.isInteger(n) || n < q.min || n > q.max) return { ok: false, message: `${q.label} must be a whole number from ${q.min} to ${q.max}.` };
    out[q.key] = n;
  }
  return { ok: true, value: out };
}

const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/**
 * OSR: the character a foe needs to be attacked (osr.attack names characters),
 * made before the fight so the combatant can stand for it; hidden as the foe
 * is, else seen as it is. Every foe gets one, with or without an AC (review
 * 10: AC-less goblins had no morale, no fall and no target): the engine
 * lists one without an AC as needing it (001 names no default).
 */
export function foeCharacterCommand(rulesetId: string, d: Draft): ClientCommand | null {
  if (foeTargetOf(rulesetId) !== 'character' || d.kind !== 'npc' || d.characterId !== null) return null;
  const stats: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(d.extra ?? {})) if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') stats[k] = v;
  if (d.hp !== null) Object.assign(stats, { hp: d.hp, maxHp: d.hp });
  const dex = num(d.init['dex'] as Json);
  if (dex !== null) stats['dex'] = dex;
  return { type: 'character.add', name: d.name, kind: 'npc', visibility: d.hidden ? 'hidden' : 'visible', stats };
}

/**
 * The 36th Way and teams: the sheet a foe on the tracker needs to be attacked,
 * keyed by its combatant id, from its stats. Sent once it is on the tracker
 * (so a hidden foe's sheet belongs to a hidden combatant from the start).
 */
export function foeSheetCommand(world: World, d: Draft): ClientCommand | null {
  if (d.kind !== 'npc' || d.characterId !== null) return null;
  // The 36th Way's engine gives a foe its sheet in the start's own transaction (ADR 69): sending one after would make Undo take two clicks.
  if (hasSheet(world, d.id) !== null || capabilitiesOf(world.rulesetId).foeSheetsByEngine) return null;
  // The stat block's attack comes along (its bonus, defence and dice: ADR 40), built by the rulesets' pure helpers.
  return foeSheetCommandOf(world.rulesetId, { id: d.id, name: d.name, hp: d.hp, block: d.extra ?? {} }) as ClientCommand | null;
}

/**
 * OSR: an AC for a foe that joined as a name only (no character, so no
 * target): the character it will play, with its AC and its combatant's hit
 * points and DEX, as hidden as the foe is. encounter.link then joins the two.
 * Null where the row needs none (another ruleset, a PC, a foe with a sheet).
 */
export function foeArmourCommand(rulesetId: string, c: Combatant, typed: string, played?: { readonly stats: { readonly [k: string]: Json } }): Parsed<ClientCommand> | null {
  if (foeTargetOf(rulesetId) !== 'character' || c.kind !== 'npc') return null;
  // A foe whose character was made without an AC (the builder's box left blank) gets it on that sheet.
  const patch = c.characterId !== null && played !== undefined && !Object.hasOwn(played.stats, 'ac');
  if (c.characterId !== null && !patch) return null;
  const ac = readQuickStats(rulesetId, { ac: typed });
  if (!ac.ok) return ac;
  if (ac.value['ac'] === undefined) return { ok: false, message: 'Type the AC first (a whole number from 0 to 30).' };
  if (patch) return { ok: true, value: { type: 'character.sheet.set', characterId: c.characterId!, sheet: { ac: ac.value['ac'] }, patch: true } };
  const stats: { [k: string]: Json } = { ac: ac.value['ac'] };
  const hp = num(c.stats['hp']);
  const maxHp = num(c.stats['maxHp']) ?? hp;
  if (hp !== null && hp >= 0) stats['hp'] = hp;
  if (maxHp !== null && maxHp >= 1) stats['maxHp'] = maxHp;
  const dex = num(c.stats['dex']) ?? (c.placement !== null && typeof c.placement === 'object' && !Array.isArray(c.placement) ? num(c.placement['dex']) : null);
  if (dex !== null) stats['dex'] = dex;
  return { ok: true, value: { type: 'character.add', name: c.name, kind: 'npc', visibility: c.visibility, stats } };
}

/** Sends one command and waits for the character it adds to show in the view; its id, or why not. */
export type AddCharacter = (command: ClientCommand, name: string) => Promise<Parsed<string>>;

/** The drafts with an OSR character made for each foe that needs one (see foeCharacterCommand). */
export async function withFoeCharacters(rulesetId: string, drafts: readonly Draft[], addCharacter: AddCharacter): Promise<Parsed<Draft[]>> {
  const out: Draft[] = [];
  for (const d of drafts) {
    const cmd = foeCharacterCommand(rulesetId, d);
    if (cmd === null) {
      out.push(d);
      continue;
    }
    const id = await addCharacter(cmd, d.name);
    if (!id.ok) return id;
    // The character now holds its hit points; the combatant reads them from its sheet.
    out.push({ ...d, characterId: id.value });
  }
  return { ok: true, value: out };
}

// As net/client.ts answers (not imported: this file is also read by Node tests, which have no DOM types).
type SendOne = (command: ClientCommand) => Promise<{ readonly ok: true } | { readonly ok: false; readonly rejection: Rejection }>;
type Words = (r: Rejection) => string;

/** An AddCharacter over a table connection: sends, then waits (up to 3 s) for a new character of that name in the latest view. */
export function characterAdder(send: SendOne, latest: () => World, words: Words): AddCharacter {
  return async (command, name) => {
    const before = new Set(Object.keys(latest().characters));
    const r = await send(command);
    if (!r.ok) return { ok: false, message: `${name}: ${words(r.rejection)}` };
    for (let i = 0; i < 60; i++) {
      const id = Object.values(latest().characters).find((c) => !before.has(c.id) && c.name === name)?.id;
      if (id !== undefined) return { ok: true, value: id };
      await new Promise((res) => setTimeout(res, 50));
    }
    return { ok: false, message: `${name} was added, but the page has not seen it yet; try again in a moment.` };
  };
}

/** The sheets the 36th Way or teams need to attack these foes, as commands (sent with the start or the add, in one step). */
export function foeSheetCommands(drafts: readonly Draft[], world: World): ClientCommand[] {
  return drafts.flatMap((d) => {
    const cmd = foeSheetCommand(world, d);
    return cmd === null ? [] : [cmd];
  });
}

/**
 * One click's commands as one change (ADR 70): a batch the engine applies in one transaction, so one Undo takes the
 * click back whole (review 9: starting a teams fight took three Undo clicks, two of them reverting invisible sheets).
 */
export function oneStep(commands: readonly ClientCommand[]): ClientCommand {
  return commands.length === 1 ? commands[0]! : { type: 'history.batch', commands: commands as unknown as Json };
}

