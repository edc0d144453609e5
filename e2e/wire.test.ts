// The web client takes the protocol's runtime values and its delta fold from
// the zod-free subpath @tablekeeper/protocol/wire (no mirror in web/net); these
// checks pin that the codec speaks what the protocol's schemas accept.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as protocol from '@tablekeeper/protocol';
import * as wire from '@tablekeeper/protocol/wire';
import * as codec from '../packages/web/src/net/codec.ts';
import { decodeServer, encodeCommand, encodeResync } from '../packages/web/src/net/codec.ts';

describe('web wire', () => {
  it('uses the protocol constants themselves', () => {
    expect(codec.WS_PATH).toBe(protocol.WS_PATH);
    expect(codec.CLOSE).toBe(wire.CLOSE);
    expect(codec.wsProtocols('abc')).toEqual([`tablekeeper.v${protocol.PROTOCOL_VERSION}`, 'tablekeeper.token.abc']);
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

  it('folds a decoded delta with the protocol fold, and hands the sender its folded acks', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'ext');
    const patch = fc.record({ p: fc.array(key, { minLength: 1, maxLength: 3 }), v: fc.option(fc.jsonValue(), { nil: undefined }) }).map(({ p, v }) => (v === undefined ? { p } : { p, v }));
    const entry = fc.record({ tx: fc.nat(50), text: fc.string() });
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 }), fc.array(patch, { maxLength: 5 }), fc.array(entry, { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 6 }), fc.array(entry, { maxLength: 3 }), fc.nat(1000), (world, patches, log, kept, add, version) => {
        const view = { world: { ...world, log }, history: [], canUndo: false, canRedo: false, undoLabel: null, redoLabel: null, version: 0 } as unknown as protocol.TableView;
        // Kept entries as [start, count] ranges over the log the view holds, the new ones in the middle.
        const pieces: (number[] | { add: unknown[] })[] = [];
        log.forEach((_, i) => {
          if (!kept[i]) return;
          const last = pieces[pieces.length - 1];
          if (Array.isArray(last) && last[0]! + last[1]! === i) last[1]!++;
          else pieces.push([i, 1]);
        });
        pieces.splice(Math.floor(pieces.length / 2), 0, { add });
        const delta = { type: 'delta' as const, from: 0, version, world: patches, log: pieces, acks: [{ commandId: 'c1', version }] } as unknown as protocol.Delta;
        const decoded = decodeServer(JSON.stringify(delta));
        if (decoded?.kind !== 'delta') throw new Error('not decoded as a delta');
        expect(decoded.apply(view as never)).toEqual(protocol.applyDelta(view, JSON.parse(JSON.stringify(delta)) as protocol.Delta));
        expect(decoded.acks).toEqual([{ commandId: 'c1', version }]);
      }),
      { numRuns: 200 },
    );
  });
});
