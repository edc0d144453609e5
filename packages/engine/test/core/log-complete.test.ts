// One damage, one line (ADR 81): a reducer may complete the line its transaction
// wrote last instead of appending a second one, but never a line of an earlier
// transaction, nor one another audience reads.
import { describe, expect, it } from 'vitest';
import { appendLog, appendOrComplete, openSentence, replaceLastLog, withLogSeq } from '../../src/core/log.js';
import { scenario } from '../../src/core/testing.js';
import type { LogEntry } from '../../src/core/types.js';

const ALL = { kind: 'all' } as const;
const GM = { kind: 'gm' } as const;
const damageLine = { audience: ALL, kind: 'hit', text: 'Kira takes 10 damage.', data: { damageTo: 'k' } };
const hpLine = { audience: ALL, kind: 'hp', text: 'Kira: HP 12 → 2.' };
const completes = (prev: LogEntry) => (prev.data !== undefined && (prev.data as { damageTo?: string }).damageTo === 'k' ? { text: `${openSentence(prev.text)}: HP 12 → 2.` } : null);

describe('completing the line a transaction wrote last', () => {
  it('rewrites the last line of the same transaction (its kind and data kept): one entry, not two', () => {
    const w0 = scenario([]).world;
    const w = withLogSeq(7, () => appendOrComplete(appendLog(w0, damageLine), hpLine, completes));
    expect(w.log.slice(w0.log.length)).toEqual([{ tx: 7, audience: ALL, kind: 'hit', text: 'Kira takes 10 damage: HP 12 → 2.', data: { damageTo: 'k' } }]);
  });

  it("appends when the last line is an earlier transaction's, another audience's, or one the reducer does not complete", () => {
    const w0 = scenario([]).world;
    const earlier = withLogSeq(7, () => appendLog(w0, damageLine));
    const later = withLogSeq(8, () => appendOrComplete(earlier, hpLine, completes));
    expect(later.log.slice(w0.log.length).map((e) => [e.tx, e.text])).toEqual([[7, 'Kira takes 10 damage.'], [8, 'Kira: HP 12 → 2.']]);
    const secret = withLogSeq(9, () => appendOrComplete(appendLog(w0, damageLine), { ...hpLine, audience: GM }, completes));
    expect(secret.log.slice(w0.log.length).map((e) => e.text)).toEqual(['Kira takes 10 damage.', 'Kira: HP 12 → 2.']);
    const other = withLogSeq(9, () => appendOrComplete(appendLog(w0, { ...damageLine, data: { damageTo: 'd' } }), hpLine, completes));
    expect(other.log.slice(w0.log.length)).toHaveLength(2);
  });

  it('never rewrites an entry another transaction wrote', () => {
    const w0 = scenario([]).world;
    const earlier = withLogSeq(7, () => appendLog(w0, damageLine));
    expect(() => withLogSeq(8, () => replaceLastLog(earlier, hpLine))).toThrow(/not this transaction/);
  });

  it("keeps the players' sentence when a completion names none: the GM's new detail never becomes what players read", () => {
    const w0 = scenario([]).world;
    const goblinHit = { audience: ALL, kind: 'hit', text: 'Goblin takes 4 damage (HP 5 → 1).', shown: 'Goblin takes 4 damage.', data: { damageTo: 'k' } };
    const w = withLogSeq(7, () => appendOrComplete(appendLog(w0, goblinHit), hpLine, (prev) => ({ text: `${openSentence(prev.text)}: nearly down.` })));
    const [line] = w.log.slice(w0.log.length);
    expect(line?.text).toBe('Goblin takes 4 damage (HP 5 → 1): nearly down.');
    expect(line?.shown).toBe('Goblin takes 4 damage.');
  });
});
