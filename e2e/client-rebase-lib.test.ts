// The table client after "someone changed the table first" (VERSION_CONFLICT):
// a command that names what it acts on goes again, once the view has the other
// change, with the same commandId; undo and "end the turn" do not (they would
// act on something the person never saw). A fake socket plays the server.
import { describe, expect, it } from 'vitest';
import { MAX_CONFLICT_RETRIES, TableClient, rebasable } from '../packages/web/src/net/client.ts';
import { RELATIVE_COMMANDS } from '../packages/web/src/net/relative-commands.ts';

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
    const answer = client.send({ type: 'teams.setSheet', id: 'cb-1', sheet: {} });
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

  it('any other refusal stands at once', async () => {
    const { client, socket } = connected();
    const answer = client.send({ type: 'encounter.damage', characterId: 'cb-9', amount: 1 });
    socket.serve({ type: 'rejection', commandId: socket.sent[0]!.commandId, error: { kind: 'RULE_ERROR', code: 'NO_HP', message: 'Goblin 2 has no hit points to change' } });
    const r = await answer;
    expect(!r.ok && r.rejection.code).toBe('RULE_ERROR');
    expect(socket.sent).toHaveLength(1);
  });
});
