// The web client mirrors a few protocol values so zod stays out of the
// browser bundle; these checks keep the mirror honest, and the client's delta
// fold equal to the protocol's.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as protocol from '@tablekeeper/protocol';
import * as wire from '../packages/web/src/net/wire.ts';
import { applyDeltaTo, decodeServer, encodeCommand, encodeResync } from '../packages/web/src/net/codec.ts';

describe('web wire mirror', () => {
  it('matches the protocol constants', () => {
    expect(wire.WS_PATH).toBe(protocol.WS_PATH);
    expect(wire.WS_SUBPROTOCOL).toBe(protocol.WS_SUBPROTOCOL);
    expect(wire.WS_TOKEN_PREFIX).toBe(protocol.WS_TOKEN_PREFIX);
    expect(wire.CLOSE).toEqual(protocol.CLOSE);
    expect(wire.wsProtocols('abc')).toEqual(protocol.wsProtocols('abc'));
  });

  it('encodes commands and resyncs the protocol schemas accept', () => {
    const cmd = JSON.parse(encodeCommand('c1-ab', 3, { type: 'countdown.tick', id: 'cd1', by: 1 }));
    expect(protocol.clientMessageSchema.safeParse(cmd).success).toBe(true);
    expect(protocol.clientMessageSchema.safeParse(JSON.parse(encodeResync(7))).success).toBe(true);
    // A client that holds no view yet never sends a negative version.
    expect(JSON.parse(encodeCommand('c2', -1, { type: 'x' })).expectedVersion).toBe(0);
  });

  it('decodes typed rejections', () => {
    const m = decodeServer(JSON.stringify({ type: 'rejection', commandId: 'c1', error: { kind: 'VERSION_CONFLICT', current: 9, message: 'stale' } }));
    expect(m).toEqual({ kind: 'rejected', commandId: 'c1', rejection: { code: 'VERSION_CONFLICT', message: 'stale', current: 9 } });
    const r = decodeServer(JSON.stringify({ type: 'rejection', commandId: null, error: { kind: 'RULE_ERROR', code: 'NOTHING_TO_UNDO', message: 'no' } }));
    expect(r).toEqual({ kind: 'rejected', commandId: null, rejection: { code: 'RULE_ERROR', message: 'no', ruleCode: 'NOTHING_TO_UNDO' } });
    expect(decodeServer('not json')).toBeNull();
  });

  it('folds deltas exactly as the protocol does', () => {
    const record = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'log', 'ext'), fc.jsonValue(), { maxKeys: 4 });
    fc.assert(
      fc.property(record, record, record, fc.option(record, { nil: undefined }), fc.nat(1000), (top, world, parts, worldDelta, version) => {
        const view = { ...top, world, history: [], version: 0 } as unknown as protocol.TableView;
        const delta = { type: 'delta' as const, from: 0, version, parts, ...(worldDelta ? { world: worldDelta } : {}) };
        expect(applyDeltaTo(view as never, delta)).toEqual(protocol.applyDelta(view, delta));
      }),
      { numRuns: 200 },
    );
  });
});
