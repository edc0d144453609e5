// Under the GM's sheet editor, where the ruleset keeps weapons as items (teams):
// what the creature still lacks to attack or parry, in words, and one short row
// that puts a weapon in its hand (review 12 #7: arming took the whole sheet and
// a weapon typed in Items was not wielded, so Parry was refused).
import { useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import { armingOf, keptSheetOf } from '@tablekeeper/rulesets/browser';
import { sentenceOf } from '../lib/words.ts';
import { TickList } from './TickList.tsx';
import type { Send } from './types.ts';

export function ArmingRow({ world, send, who, idPrefix }: { world: World; send: Send; who: { readonly id: string; readonly name: string; readonly characterId: string | null }; idPrefix: string }) {
  const arming = armingOf(world.rulesetId);
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
  // Other attributes the weapon may roll, ticked in the same list as the sheet form's (TickList).
  const [also, setAlso] = useState<readonly string[]>([]);
  if (arming === null) return null;
  const sheet = keptSheetOf(world, who.id, who.characterId);
  const lacks = arming.lacks(who.name, sheet);
  const choices = arming.choices(sheet);
  const p = (k: string) => `${idPrefix}-arm-${k}`;
  return (
    <div data-testid="arming" style={{ marginTop: '6px' }}>
      {lacks.length > 0 ? (
        <ul class="small" aria-label={`What ${who.name} still lacks`} data-testid="arming-lacks">
          {lacks.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : (
        <p class="small muted" data-testid="arming-lacks">
          {who.name} can attack and parry.
        </p>
      )}
      {arming.weapons(sheet) !== '' ? (
        <p class="small" data-testid="arming-weapons">
          Weapons: {arming.weapons(sheet)}. Give another below; the one in hand parries.
        </p>
      ) : null}
      <form
        class="row small"
        aria-label={`A weapon in ${who.name}'s hand`}
        onSubmit={async (e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const num = (k: string) => Number(String(f.get(k) ?? '').trim() || 'NaN');
          const made = arming.patch(sheet, {
            name: String(f.get('name') ?? ''),
            attribute: String(f.get('attribute') ?? ''),
            damage: num('damage'),
            damageType: String(f.get('damageType') ?? ''),
            wielded: f.get('wielded') === 'on',
            attributeDie: num('attributeDie'),
            combatDie: num('combatDie'),
            also,
          });
          if (!made.ok) return setNote({ text: made.message, bad: true });
          const r = await send({ type: 'character.sheet.set', characterId: who.characterId ?? who.id, sheet: made.patch as { [k: string]: Json }, patch: true });
          setNote(r.ok ? { text: `${who.name} has the ${String(f.get('name')).trim()}${f.get('wielded') === 'on' ? ' in hand' : ''}.`, bad: false } : { text: sentenceOf(r.rejection), bad: true });
        }}
      >
        <label for={p('name')}>Weapon</label>
        <input id={p('name')} name="name" placeholder="sword" maxLength={40} style={{ width: '7em' }} />
        <label for={p('attribute')}>rolls</label>
        <select id={p('attribute')} name="attribute">
          {choices.attributes.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        {/* Another attribute it may roll instead, ticked: never typed (review 12 #7). */}
        <span role="group" aria-label="Also usable with" class="row">
          or
          <TickList options={choices.attributes.map((a) => ({ value: a, label: a }))} picked={also} onToggle={(a, on) => setAlso((old) => (on ? [...old, a] : old.filter((x) => x !== a)))} compact />
        </span>
        <label for={p('damage')}>damage</label>
        <input id={p('damage')} name="damage" inputMode="numeric" defaultValue="4" style={{ width: '4em' }} />
        <label for={p('damageType')}>type</label>
        <select id={p('damageType')} name="damageType">
          {choices.damageTypes.map((t) => (
            // Preact's select takes its first choice from the option marked, not from defaultValue.
            <option key={t} value={t} selected={t === 'slashing'}>
              {t}
            </option>
          ))}
        </select>
        {/* Dice the sheet has are kept; these fill in only what it lacks. */}
        <label for={p('attributeDie')}>attribute die if none</label>
        <select id={p('attributeDie')} name="attributeDie">
          {arming.dice.map((d) => (
            <option key={d} value={d} selected={d === 6}>
              d{d}
            </option>
          ))}
        </select>
        <label for={p('combatDie')}>combat skill die if none</label>
        <select id={p('combatDie')} name="combatDie">
          {arming.dice.map((d) => (
            <option key={d} value={d} selected={d === 6}>
              d{d}
            </option>
          ))}
        </select>
        <label class="row" style={{ fontWeight: 400 }}>
          <input type="checkbox" name="wielded" defaultChecked style={{ minHeight: 'auto' }} /> in hand (wielded: parries)
        </label>
        <button type="submit" class="small">
          Give the weapon
        </button>
      </form>
      {note !== null ? (
        <p class={note.bad ? 'error small' : 'small muted'} role={note.bad ? 'alert' : 'status'} data-testid="arming-note">
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
