// Table setups several browser tests share, so each test file says only what
// it is about: an OSR Kira fighting one foe, the 36th Way's Kira and Orc, a
// teams raid, and a table made and peopled from the landing page by clicking.
import type { Page } from 'playwright-core';
import type { Night } from './actions-flow.ts';
import type { E2e, MadeSeat, MadeTable, ProtocolSocket } from './harness.ts';

/** A foe as encounter.start takes it. */
type Foe = { readonly name: string; readonly [k: string]: unknown };

/**
 * An OSR table with Ann's Kira (10 HP, DEX 14, AC 12) in a running fight against `foe` on the foes' side:
 * Kira acts first unless the foe's DEX beats 14.
 */
export async function osrKiraAgainst(e2e: E2e, tableName: string, foe: Foe): Promise<{ t: MadeTable; annSeat: MadeSeat; gmSock: ProtocolSocket; kira: string }> {
  const t = await e2e.table('osr', tableName);
  const annSeat = await e2e.seat(t, 'Ann');
  const gmSock = await e2e.socket(t.gmToken);
  await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: annSeat.seatId, stats: { maxHp: 10, hp: 10, dex: 14, ac: 12 } });
  const kira = Object.values(gmSock.view().world.characters).find((c) => c.name === 'Kira')!.id;
  await gmSock.command({
    type: 'encounter.start',
    combatants: [{ name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14, hp: 10, maxHp: 10 } }, { kind: 'npc', side: 'foes', ...foe }],
  });
  return { t, annSeat, gmSock, kira };
}

/** The 36th Way: the seat's Kira (level 1, 30 HP, fast) and an Orc (level 2, 20 HP, medium) in a running fight. */
export async function tswKiraAndOrc(n: Night): Promise<void> {
  await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 30 } });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 2, volition: 0, ac: 14, pd: 13, md: 10, maxHp: 20 } });
  await n.gmSock.command({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
    ],
  });
}

/** A teams table named `name` with Boudica (players) and a Raider (raiders) in a running fight, the players first; no sheets yet. */
export async function teamsRaid(e2e: E2e, name: string): Promise<{ made: MadeTable; gmSock: ProtocolSocket }> {
  const made = await e2e.table('teams', name);
  const gmSock = await e2e.socket(made.gmToken);
  await gmSock.command({
    type: 'encounter.start',
    combatants: [
      { id: 'boudica', name: 'Boudica', kind: 'pc', side: 'players' },
      { id: 'raider', name: 'Raider', kind: 'npc', side: 'raiders' },
    ],
    params: { teamOrder: ['players', 'raiders'] },
  });
  return { made, gmSock };
}

/** A new table from the landing page, by clicking, until its socket is open. */
export async function createTableByHand(gm: Page, serverUrl: string, name: string, rulesetId: string): Promise<void> {
  await gm.goto(serverUrl + '/');
  await gm.getByLabel('Table name').fill(name);
  await gm.getByLabel('Rules').selectOption(rulesetId);
  await gm.getByRole('button', { name: 'Create table' }).click();
  await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
}

/** Each player's seat and character (with its hit points) from the Invite panel; answers the seats' links in order. */
export async function invitePlayers(
  gm: Page,
  players: readonly (readonly [player: string, hero: string, hp: string, needs?: { readonly [label: string]: string }])[],
): Promise<string[]> {
  const invite = gm.locator('.area-invite');
  const links: string[] = [];
  for (const [player, hero, hp, needs] of players) {
    await invite.getByLabel('Player name').fill(player);
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel(`Character name for ${player}`).fill(hero);
    await invite.getByLabel('Hit points').last().fill(hp);
    // What the ruleset's quick character needs besides HP (inviteNeedsOf: Daggerheart's Evasion, the teams' Endurance, Stamina and Constitution).
    for (const [label, value] of Object.entries(needs ?? {})) await invite.getByLabel(`${label} for ${player}'s character`).fill(value);
    await invite.getByRole('button', { name: 'Add character' }).last().click();
    await invite.getByText(hero, { exact: true }).waitFor();
    links.push(await invite.getByTestId('seat-link').last().inputValue());
  }
  return links;
}
