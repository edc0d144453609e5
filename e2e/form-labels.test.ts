// Words, not raw keys (issue 20; review 10 read "str (optional)", "hd", "Item 1: key", "edge save (optional)
// -10–10"): in real Chromium, each ruleset's "Add a character" and "New stat block" forms, with a row of every
// list and map added, label every field in the rules' words. A label starts with a capital, holds no camelCase
// key and no schema key in its raw spelling; a range and "optional" are words in one bracket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { z } from 'zod';
import { rulesetIds, sheetSchemaFor, statBlockOf } from '@tablekeeper/rulesets';
import { startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('form-labels');
});
afterAll(async () => {
  await e2e?.close();
});

type Schema = { readonly [k: string]: unknown };

/** Every property key of a JSON Schema, at every depth ("maxHp", "attackVs", "recoveryDice", "count"...). */
function keysOf(s: unknown, out = new Set<string>()): Set<string> {
  if (s === null || typeof s !== 'object') return out;
  if (Array.isArray(s)) {
    for (const x of s) keysOf(x, out);
    return out;
  }
  const o = s as Schema;
  if (o['properties'] !== null && typeof o['properties'] === 'object') for (const k of Object.keys(o['properties'] as object)) out.add(k);
  for (const v of Object.values(o)) keysOf(v, out);
  return out;
}

/** A key as the old forms printed it: "maxHp" -> "max hp". */
const raw = (key: string): string => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** Clicks every "add …" button twice over, so lists, maps and the lists inside their first rows show a row each. */
async function addRows(form: Locator): Promise<void> {
  for (let pass = 0; pass < 2; pass++) {
    const adds = form.getByRole('button', { name: /^add / });
    const n = await adds.count();
    for (let i = n - 1; i >= 0; i--) await adds.nth(i).click();
  }
}

/**
 * The labels and legends a form shows, without a map row's value (labelled by the row's own name, which the GM
 * picks: "cold", "strength") and without the picker of a sheet's own items (labelled by the items' names).
 */
async function labelsIn(form: Locator): Promise<string[]> {
  return form.evaluate((el) =>
    [...el.querySelectorAll('label, legend')]
      .filter((x) => !(x.tagName === 'LABEL' && ((x.getAttribute('for') ?? '').endsWith('.value') || (x.getAttribute('for') ?? '') === '')))
      .map((x) => (x.textContent ?? '').trim()),
  );
}

/** What is wrong with each label, or nothing. */
function problems(labels: readonly string[], keys: ReadonlySet<string>): string[] {
  const rawWords = new Set([...keys].map(raw));
  return labels.flatMap((t) => {
    const head = t.replace(/ \(.*$/, '');
    const out: string[] = [];
    if (!/^[A-Z0-9]/.test(t)) out.push(`"${t}" does not start with a capital`);
    if (/[a-z][A-Z]/.test(t)) out.push(`"${t}" holds a camelCase key`);
    if (/: key\b|\bkey$/.test(t)) out.push(`"${t}" calls a name a key`);
    if (rawWords.has(head) && head !== head.toUpperCase()) out.push(`"${t}" is the raw key "${head}"`);
    if (/\(optional\) -?\d/.test(t) || /\d–\d+ \(/.test(t)) out.push(`"${t}" puts its range outside its bracket`);
    return out;
  });
}

describe('form labels in words, every ruleset', () => {
  it('the check itself catches what review 10 read', () => {
    const keys = new Set(['str', 'maxHp', 'hd', 'edgeSave', 'items']);
    expect(problems(['str (optional) 0–30', 'max hp (optional)', 'Item 1: key', 'hd', 'Edge Save (optional, -10 to 10)', 'HP (optional, 1–30)', 'Strength (STR) (optional, 0–30)'], keys)).toEqual([
      '"str (optional) 0–30" does not start with a capital',
      '"str (optional) 0–30" is the raw key "str"',
      '"str (optional) 0–30" puts its range outside its bracket',
      '"max hp (optional)" does not start with a capital',
      '"max hp (optional)" is the raw key "max hp"',
      '"Item 1: key" calls a name a key',
      '"hd" does not start with a capital',
      '"hd" is the raw key "hd"',
    ]);
  });

  it.each(rulesetIds)('%s: "Add a character" and "New stat block" label every field in words', async (id) => {
    const sheetKeys = keysOf(sheetSchemaFor(id)!.schema);
    const blockKeys = keysOf(z.toJSONSchema(statBlockOf(id)!, { io: 'input', unrepresentable: 'any' }));
    const made = await e2e!.table(id, 'Labels');
    const gm = await e2e!.open(made.links.gm, { width: 1400, height: 900 });

    const add = gm.p.getByTestId('party-files').getByTestId('add-character-form');
    if ((await add.getAttribute('open')) === null) await add.locator('summary').click();
    const sheetForm = add.getByTestId('schema-form');
    await sheetForm.waitFor();
    await addRows(sheetForm);
    const sheetLabels = await labelsIn(add);
    // Not vacuous: the sheet's fields are on show (every ruleset's sheet has more than five).
    expect(sheetLabels.length).toBeGreaterThan(5);
    expect(problems(sheetLabels, sheetKeys)).toEqual([]);

    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const blockForm = best.getByTestId('bestiary-new').getByTestId('schema-form');
    await blockForm.waitFor();
    await addRows(blockForm);
    const blockLabels = await labelsIn(blockForm);
    expect(blockLabels).toContain('Name');
    expect(blockLabels.length).toBeGreaterThan(2);
    expect(problems(blockLabels, new Set([...blockKeys, 'name', 'notes', 'block']))).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('the 36th Way bestiary line reads each number and choice under its rule text\'s name', async () => {
    const made = await e2e!.table('36th-way', 'Labels line');
    const gm = await e2e!.open(made.links.gm, { width: 1400, height: 900 });
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Spearman');
    await form.getByLabel(/^HP \(optional, 1 or more\)$/).fill('10');
    await form.getByLabel(/^Initiative band \(optional\)$/).selectOption('very-fast');
    await form.getByLabel(/^Level \(optional, 0–15\)$/).fill('1');
    await form.getByLabel(/^Attack name \(optional\)$/).fill('Spear');
    await form.getByLabel(/^Attack against \(optional\)$/).selectOption('ac');
    await form.getByLabel(/^Attack reaches \(optional\)$/).selectOption('engaged');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const line = best.getByTestId('bestiary-list');
    await expect.poll(() => line.textContent()).toContain('HP 10 · Initiative band very fast · Level 1 · Attack name Spear · Attack against AC · Attack reaches engaged (melee)');
    expect(gm.errors).toEqual([]);
  });
});
