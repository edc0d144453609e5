// The GM's query-asking panels open as they were left on this device (ADR 86):
// shut by default, open again only after the GM opened them, each panel on its
// own, and a browser that refuses storage only forgets.
import { describe, expect, it } from 'vitest';
import { SHOWN_KEY, rememberShown, wasShown } from '../packages/web/src/lib/shownPanels.ts';

function memory(): { getItem(k: string): string | null; setItem(k: string, v: string): void; data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('shown panels (ADR 86)', () => {
  it('a panel is shut until the GM opens it, then open on this device until shut again; each panel on its own', () => {
    const store = memory();
    expect(wasShown('rule-tools', store)).toBe(false);
    rememberShown('rule-tools', true, store);
    expect(wasShown('rule-tools', store)).toBe(true);
    expect(wasShown('return-chances', store)).toBe(false);
    rememberShown('return-chances', true, store);
    rememberShown('rule-tools', true, store);
    expect(JSON.parse(store.data.get(SHOWN_KEY)!)).toEqual(['return-chances', 'rule-tools']);
    rememberShown('rule-tools', false, store);
    expect(wasShown('rule-tools', store)).toBe(false);
    expect(wasShown('return-chances', store)).toBe(true);
  });

  it('no storage, a refusing one or a garbled value: shut, and nothing thrown', () => {
    expect(wasShown('rule-tools', null)).toBe(false);
    rememberShown('rule-tools', true, null);
    const refusing = { getItem: () => '["rule-tools"]', setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => rememberShown('return-chances', true, refusing)).not.toThrow();
    expect(wasShown('rule-tools', refusing)).toBe(true);
    for (const garbled of ['{', '"rule-tools"', '{"rule-tools":true}', '[1, null]']) expect(wasShown('rule-tools', { getItem: () => garbled, setItem: () => undefined })).toBe(false);
  });
});
