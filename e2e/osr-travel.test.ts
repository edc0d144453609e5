// Overland travel with a 0' PC in real Chromium (issue 16): the calculator
// shows why the party cannot travel together and holds the button; once the
// mule drops load it is merely encumbered (half pace), the party keeps to it,
// and the server travels by the calculator's figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { characterNamed, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('osr-travel');
});

afterAll(async () => {
  await e2e?.close();
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('OSR travel calculator and a completely encumbered PC', () => {
  it('0\' travels 0 with the reason and the button held; dropping load gives half pace, which the server travels by', async () => {
    const made = await e2e!.table('osr', 'Road');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Strong', kind: 'pc', stats: { str: 14, maxHp: 8 } });
    // STR 10 with 16 load: 6 loads over, 30' - 30' = 0' (001 "Movement Actions": completely encumbered).
    await gmSock.command({ type: 'character.add', name: 'Mule', kind: 'pc', stats: { str: 10, load: 16, maxHp: 8 } });
    const mule = characterNamed(gmSock, 'Mule');

    const { p: page, errors } = await e2e!.open(made.links.gm, { width: 1440, height: 1000 });
    const ex = page.getByTestId('exploration');
    const travel = ex.getByRole('group', { name: 'Travel', exact: true });

    await expect.poll(() => text(ex.getByTestId('travel-preview'))).toContain('0 miles a day');
    expect(await text(ex.getByTestId('travel-blocked'))).toContain('Mule is completely encumbered (16 load on STR 10');
    expect(await travel.getByRole('button', { name: 'Travel 1 day' }).isDisabled()).toBe(true);

    // 11 load: one over, 25': encumbered, (10 + 0) / 2 = 5 miles; Strong makes 12; the party keeps to 5.
    await gmSock.command({ type: 'osr.setLoad', character: mule, load: 11 });
    await expect.poll(() => text(ex.getByTestId('travel-preview'))).toContain('5 miles a day');
    expect(await ex.getByTestId('travel-blocked').count()).toBe(0);
    expect(await text(ex.getByTestId('travel-preview'))).toContain('the party keeps to Mule');
    await travel.getByRole('button', { name: 'Travel 1 day' }).click();
    await ex.getByTestId('travel-result').waitFor();
    expect(await text(ex.getByTestId('travel-result'))).toContain('5 miles a day, 5 in all.');
    expect(errors).toEqual([]);
  });
});
