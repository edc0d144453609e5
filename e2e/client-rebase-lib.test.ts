// The table client after "someone changed the table first" (VERSION_CONFLICT):
// a command that names what it acts on goes again, once the view has the other
// change, with the same commandId; undo and "end the turn" do not (they would
// act on something the person never saw). A fake socket plays the server.
import { describe, expect, it } from 'vitest';
import { MAX_CONFLICT_RETRIES, TableClient, rebasable } from '../packages/web/src/net/client.ts';
import { NAMED_BY, RELATIVE_COMMANDS } from '../packages/web/src/net/relative-commands.ts';

interface Sent { readonly commandId: string; readonly expectedVersion: number; readonly command: { readonly type: string } }

class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 1;
  readonly sent: Sent[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send(text: string): void {
    const m = JSON.parse(text) as { type: string } & Sent;
    if (m.type === 'command') this.sent.push({ commandId: m.commandId, expectedVersion: m.expectedVersion, command: m.command });
  }
  close(): void {}
  serve(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

const view = { world: { log: [] }, history: [] };
function connected(): { client: TableClient; socket: FakeSocket } {
  const client = new TableClient({ url: 'ws://test/ws', capability: { role: 'gm', token: 't' }, WebSocketImpl: FakeSocket as unknown as typeof WebSocket });
  client.connect();
  const socket = FakeSocket.last!;
  socket.serve({ type: 'snapshot', version: 5, view });
  return { client, socket };
}
const conflict = (commandId: string, current: number) => ({ type: 'rejection', commandId, error: { kind: 'VERSION_CONFLICT', current, message: `the table is at version ${current}` } });
const delta = (from: number, version: number, acks: { commandId: string; version: number }[] = []) => ({ type: 'delta', from, version, acks });

describe('a command refused because another landed first', () => {
  it('goes again on top of version 6 once the view has it, with the same commandId, and resolves with its ack', async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'character.sheet.set', characterId: 'cb-1', sheet: {} });
    const first = socket.sent[0]!;
    expect(first.expectedVersion).toBe(5);
    // The player's command landed as version 6; ours is refused before its delta arrives.
    socket.serve(conflict(first.commandId, 6));
    expect(socket.sent).toHaveLength(1);
    socket.serve(delta(5, 6));
    expect(socket.sent).toHaveLength(2);
    expect(socket.sent[1]).toEqual({ ...first, expectedVersion: 6 });
    socket.serve(delta(6, 7, [{ commandId: first.commandId, version: 7 }]));
    await expect(answer).resolves.toEqual({ ok: true, version: 7 });
    expect(client.lastRejection.value).toBeNull();
  });

  it('goes again at once when the delta came before the refusal', async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'encounter.damage', characterId: 'cb-2', amount: 3 });
    const id = socket.sent[0]!.commandId;
    socket.serve(delta(5, 6));
    socket.serve(conflict(id, 6));
    expect(socket.sent.map((s) => s.expectedVersion)).toEqual([5, 6]);
    socket.serve({ type: 'ack', commandId: id, version: 7 });
    await expect(answer).resolves.toEqual({ ok: true, version: 7 });
  });

  it(`stops after ${MAX_CONFLICT_RETRIES} retries and shows the conflict`, async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'character.add', name: 'Goblin', kind: 'npc' });
    const id = socket.sent[0]!.commandId;
    for (let v = 6; v <= 6 + MAX_CONFLICT_RETRIES; v++) {
      socket.serve(delta(v - 1, v));
      socket.serve(conflict(id, v));
    }
    expect(socket.sent).toHaveLength(1 + MAX_CONFLICT_RETRIES);
    const r = await answer;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.rejection.code).toBe('VERSION_CONFLICT');
    expect(client.lastRejection.value?.code).toBe('VERSION_CONFLICT');
  });

  it.each([...RELATIVE_COMMANDS])('%s (declared relative, ADR 47) is not sent again: the refusal reaches the screen', async (type) => {
    const { client, socket } = connected();
    expect(rebasable({ type })).toBe(false);
    const answer = client.send({ type });
    socket.serve(delta(5, 6));
    socket.serve(conflict(socket.sent[0]!.commandId, 6));
    const r = await answer;
    expect(!r.ok && r.rejection.code).toBe('VERSION_CONFLICT');
    expect(socket.sent).toHaveLength(1);
  });

  it.each(Object.entries(NAMED_BY))('%s naming what it acts on (%s, ADR 58) goes again after a conflict, and the rules judge it on the new version', async (type, field) => {
    const { client, socket } = connected();
    expect(rebasable({ type, [field]: 'cb-1' })).toBe(true);
    expect(rebasable({ type })).toBe(false);
    const answer = client.send({ type, [field]: 'cb-1' });
    const first = socket.sent[0]!;
    socket.serve(conflict(first.commandId, 6));
    socket.serve(delta(5, 6));
    expect(socket.sent).toHaveLength(2);
    expect(socket.sent[1]).toEqual({ ...first, expectedVersion: 6 });
    // The turn had moved on: the rules, not the version, refuse it, and that reaches the screen.
    socket.serve({ type: 'rejection', commandId: first.commandId, error: { kind: 'RULE_ERROR', code: 'TURN_MOVED_ON', message: 'the turn of "cb-1" is already over' } });
    const r = await answer;
    expect(!r.ok && r.rejection.code).toBe('RULE_ERROR');
    expect(socket.sent).toHaveLength(2);
  });

  it('an End turn naming its turn lands on the new version when the turn is still running', async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'encounter.endTurn', id: 'cb-1' });
    const first = socket.sent[0]!;
    socket.serve(delta(5, 6));
    socket.serve(conflict(first.commandId, 6));
    expect(socket.sent[1]).toEqual({ ...first, expectedVersion: 6 });
    socket.serve(delta(6, 7, [{ commandId: first.commandId, version: 7 }]));
    await expect(answer).resolves.toEqual({ ok: true, version: 7 });
  });

  it('any other refusal stands at once', async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'encounter.damage', characterId: 'cb-9', amount: 1 });
    socket.serve({ type: 'rejection', commandId: socket.sent[0]!.commandId, error: { kind: 'RULE_ERROR', code: 'NO_HP', message: 'Goblin 2 has no hit points to change' } });
    const r = await answer;
    expect(!r.ok && r.rejection.code).toBe('RULE_ERROR');
    expect(socket.sent).toHaveLength(1);
  });
});

// Pressing U or N twice faster than a server round trip (a loaded machine, a quick GM): the second
// press waits for the first one's answer and goes on the version it landed at (ADR 46), so the rules,
// not a version conflict, decide it.
describe("a command sent while this client's own earlier command is unanswered", () => {
  it('a second end turn waits for the first and goes on the version the first landed at', async () => {
    const { client, socket } = connected();
    const first = client.send({ type: 'encounter.endTurn' });
    const second = client.send({ type: 'encounter.endTurn' });
    expect(socket.sent.map((s) => s.expectedVersion)).toEqual([5]);
    socket.serve(delta(5, 6, [{ commandId: socket.sent[0]!.commandId, version: 6 }]));
    await expect(first).resolves.toEqual({ ok: true, version: 6 });
    expect(socket.sent.map((s) => [s.command.type, s.expectedVersion])).toEqual([['encounter.endTurn', 5], ['encounter.endTurn', 6]]);
    socket.serve(delta(6, 7, [{ commandId: socket.sent[1]!.commandId, version: 7 }]));
    await expect(second).resolves.toEqual({ ok: true, version: 7 });
    expect(client.lastRejection.value).toBeNull();
  });

  it('three undos in a row go one after another, each on the version the one before left', async () => {
    const { client, socket } = connected();
    const answers = [client.send({ type: 'history.undo' }), client.send({ type: 'history.undo' }), client.send({ type: 'history.undo' })];
    for (let v = 6; v <= 8; v++) {
      expect(socket.sent).toHaveLength(v - 5);
      socket.serve(delta(v - 1, v, [{ commandId: socket.sent[v - 6]!.commandId, version: v }]));
    }
    expect(socket.sent.map((s) => s.expectedVersion)).toEqual([5, 6, 7]);
    expect(await Promise.all(answers)).toEqual([6, 7, 8].map((version) => ({ ok: true, version })));
  });

  it('an end turn after a damage click waits for the damage to land (it would have been refused as a conflict)', async () => {
    const { client, socket } = connected();
    const damage = client.send({ type: 'encounter.damage', characterId: 'cb-1', amount: 2 });
    const end = client.send({ type: 'encounter.endTurn' });
    expect(socket.sent).toHaveLength(1);
    socket.serve(delta(5, 6, [{ commandId: socket.sent[0]!.commandId, version: 6 }]));
    await expect(damage).resolves.toEqual({ ok: true, version: 6 });
    expect(socket.sent[1]).toMatchObject({ command: { type: 'encounter.endTurn' }, expectedVersion: 6 });
    socket.serve({ type: 'ack', commandId: socket.sent[1]!.commandId, version: 7 });
    await expect(end).resolves.toEqual({ ok: true, version: 7 });
  });

  it('a command clicked while an end turn waits keeps its place behind it', async () => {
    const { client, socket } = connected();
    void client.send({ type: 'encounter.endTurn' });
    void client.send({ type: 'encounter.endTurn' });
    const tick = client.send({ type: 'countdown.tick', countdownId: 'cd-1', by: 1 });
    expect(socket.sent).toHaveLength(1);
    socket.serve(delta(5, 6, [{ commandId: socket.sent[0]!.commandId, version: 6 }]));
    expect(socket.sent.map((s) => s.command.type)).toEqual(['encounter.endTurn', 'encounter.endTurn']);
    socket.serve(delta(6, 7, [{ commandId: socket.sent[1]!.commandId, version: 7 }]));
    expect(socket.sent[2]).toMatchObject({ command: { type: 'countdown.tick' }, expectedVersion: 7 });
    socket.serve(delta(7, 8, [{ commandId: socket.sent[2]!.commandId, version: 8 }]));
    await expect(tick).resolves.toEqual({ ok: true, version: 8 });
  });

  it('when the first is refused, the ones behind it are not sent and the first refusal stays on screen', async () => {
    const { client, socket } = connected();
    const first = client.send({ type: 'encounter.endTurn' });
    const second = client.send({ type: 'encounter.endTurn' });
    const third = client.send({ type: 'countdown.tick', countdownId: 'cd-1', by: 1 });
    socket.serve({ type: 'rejection', commandId: socket.sent[0]!.commandId, error: { kind: 'RULE_ERROR', code: 'NO_CURRENT_TURN', message: 'nobody is taking a turn' } });
    expect(!(await first).ok).toBe(true);
    for (const held of [second, third]) {
      const r = await held;
      expect(!r.ok && r.rejection.code).toBe('NOT_SENT');
    }
    expect(socket.sent).toHaveLength(1);
    expect(client.lastRejection.value?.code).toBe('RULE_ERROR');
  });

  it("someone else's change between the two still refuses the second (it would act on a turn nobody saw)", async () => {
    const { client, socket } = connected();
    void client.send({ type: 'encounter.endTurn' });
    const second = client.send({ type: 'encounter.endTurn' });
    socket.serve(delta(5, 6, [{ commandId: socket.sent[0]!.commandId, version: 6 }]));
    socket.serve(delta(6, 7));
    expect(socket.sent[1]!.expectedVersion).toBe(6);
    socket.serve(conflict(socket.sent[1]!.commandId, 7));
    const r = await second;
    expect(!r.ok && r.rejection.code).toBe('VERSION_CONFLICT');
    expect(socket.sent).toHaveLength(2);
  });

  it('after a reconnect the first goes again and the second still waits for its answer', async () => {
    const { client, socket } = connected();
    void client.send({ type: 'encounter.endTurn' });
    const second = client.send({ type: 'encounter.endTurn' });
    const firstId = socket.sent[0]!.commandId;
    socket.onclose?.({ code: 1006, reason: '' });
    await expect.poll(() => FakeSocket.last !== socket).toBe(true);
    const again = FakeSocket.last!;
    again.serve({ type: 'snapshot', version: 6, view });
    expect(again.sent.map((s) => s.commandId)).toEqual([firstId]);
    again.serve({ type: 'ack', commandId: firstId, version: 6 });
    expect(again.sent[1]).toMatchObject({ command: { type: 'encounter.endTurn' }, expectedVersion: 6 });
    again.serve({ type: 'ack', commandId: again.sent[1]!.commandId, version: 7 });
    await expect(second).resolves.toEqual({ ok: true, version: 7 });
    client.close();
  });
});
