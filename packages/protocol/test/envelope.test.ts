// The command envelope's hand-checked fast path (parseClientMessage) must read
// exactly as the zod schema does: over random envelopes, near-valid and
// broken, as they arrive off the wire (through JSON), it accepts what zod
// accepts with the same data, and leaves everything else to zod (same errors).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientMessageSchema, LIMITS, parseClientMessage } from '../src/index.js';

const idLike = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/),
  fc.constantFrom('', 'a b', 'x'.repeat(LIMITS.commandIdMaxLength + 1), 'é', 'c/1'),
  fc.string({ maxLength: 70 }),
);
const typeLike = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/), fc.constantFrom('', 'log note', 'x'.repeat(65), 'dice:roll'), fc.string({ maxLength: 70 }));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const versionLike = fc.oneof(fc.nat(), fc.integer({ min: -5, max: -1 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 60), fc.string({ maxLength: 3 }), fc.constant(null));
const command = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(typeLike, fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 4 })).map(([type, rest]) => ({ ...rest, type })) },
  { weight: 1, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"type":"log.note","__proto__":{"x":1}}') as unknown) },
);
const envelope = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('command'), commandId: idLike, expectedVersion: versionLike, command }, { requiredKeys: ['type'] }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('command'), commandId: idLike, expectedVersion: fc.nat(), command, extra: anyJson }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('resync', 'ping', 'query', 'hello', 'nope'), since: fc.nat(), nonce: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: anyJson },
);

describe('parseClientMessage (command envelope fast path)', () => {
  it('reads every envelope as clientMessageSchema does, off the wire', () => {
    fc.assert(
      fc.property(envelope, (msg) => {
        const wire: unknown = JSON.parse(JSON.stringify(msg) ?? 'null');
        const fast = parseClientMessage(wire);
        const slow = clientMessageSchema.safeParse(wire);
        expect(fast.success).toBe(slow.success);
        if (fast.success && slow.success) expect(fast.data).toEqual(slow.data);
        else expect(fast.error?.issues).toEqual(slow.error?.issues);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a valid command envelope with its payload as sent, and names a bad commandId as zod does', () => {
    const ok = parseClientMessage({ type: 'command', commandId: 'c-1', expectedVersion: 3, command: { type: 'log.note', text: 'hi', audience: { kind: 'gm' } }, stray: 1 });
    expect(ok).toEqual({ success: true, data: { type: 'command', commandId: 'c-1', expectedVersion: 3, command: { type: 'log.note', text: 'hi', audience: { kind: 'gm' } } } });
    const bad = parseClientMessage({ type: 'command', commandId: 'no spaces', expectedVersion: 3, command: { type: 'log.note' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['commandId'], message: 'a commandId is letters, digits, _.:-' });
  });
});
