// The GM's tools on an open tracker row: move it in the order, ±1 on each
// health-like track, and the condition picker. Loaded when the GM first opens
// a row (a phone never does).
import { useRef, useState } from 'preact/hooks';
import type { Combatant, World } from '@tablekeeper/engine';
import { hasPanel } from '@tablekeeper/rulesets/browser';
import { adjustField, initiativeOf, placeCommand, words } from '../lib/initiative.ts';
import { conditionCommand, CUSTOM } from '../lib/turns.ts';
import { savedConditions } from '@tablekeeper/engine/custom-conditions';
import { revealMarks } from '@tablekeeper/engine/reveal-when-acts';
import { saveConditionCommand } from '../lib/customConditions.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { characterAdder, foeArmourCommand } from '../lib/foes.ts';
import { osrRowCommands } from '../lib/osr.ts';
import { ConditionFields } from './ConditionFields.tsx';
import { RangeTool } from './RangeTool.tsx';
import { InlineForm } from './InlineForm.tsx';
import { ConfirmRemove } from './TableKeeping.tsx';
import type { Send } from './types.ts';

export function RowTools({ c, world, send, tracks, set }: { c: Combatant; world: World; send: Send; tracks: { key: string; label: string; value: number }[]; set: (key: string, value: number) => unknown }) {
  return (
    <>
      <AdjustPlace c={c} world={world} send={send} />
      {c.visibility !== 'visible' ? <RevealWhenActs c={c} world={world} send={send} /> : null}
      {tracks.map((t) => (
        <div key={t.key} class="row" role="group" aria-label={`${c.name} ${t.label === 'HP' ? 'hit points' : t.label}`} style={{ margin: '4px 0' }}>
          <button class="small" aria-label={`${c.name} loses 1 ${t.label}`} onClick={() => set(t.key, t.value - 1)}>
            −1 {t.label}
          </button>
          <button class="small" aria-label={`${c.name} gains 1 ${t.label}`} onClick={() => set(t.key, t.value + 1)}>
            +1 {t.label}
          </button>
        </div>
      ))}
      <ConditionPicker c={c} world={world} send={send} />
      <UnableToAct c={c} world={world} send={send} />
      {Object.keys(encounterOf(world)?.economyDef?.pools ?? {}).length > 0 ? <GrantAction c={c} world={world} send={send} /> : null}
      {foeArmourCommand(world.rulesetId, c, '', c.characterId === null ? undefined : world.characters[c.characterId]) !== null ? <FoeArmour c={c} world={world} send={send} /> : null}
      {hasPanel(world.rulesetId, 'rowActions') ? <OsrRowActions c={c} world={world} send={send} /> : null}
      {hasPanel(world.rulesetId, 'ranges') ? <RangeTool c={c} world={world} send={send} /> : null}
      <RemoveCombatant c={c} world={world} send={send} />
    </>
  );
}

/** Takes a creature out of this fight (encounter.remove), after a confirm; its character stays at the table. */
function RemoveCombatant({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const [msg, setMsg] = useState<string | null>(null);
  return (
    <div class="row small" style={{ margin: '4px 0' }}>
      <ConfirmRemove
        what={c.name}
        from=" from the fight"
        onConfirm={async () => {
          const r = await send({ type: 'encounter.remove', characterId: c.id });
          setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
        }}
      />
      {msg === null ? null : (
        <span class="error" role="alert">
          {msg}
        </span>
      )}
    </div>
  );
}

/** The GM's own say that a creature cannot act (held, stunned by a ruling), or can again; the turn order passes over it meanwhile. */
function UnableToAct({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  return <CommandToggle checked={c.incapacitated} label={`${c.name} cannot act`} world={world} send={send} command={(on) => ({ type: 'encounter.setIncapacitated', characterId: c.id, value: on })} />;
}

/** A row checkbox whose every change is one command; a refusal shows beside it in words. */
function CommandToggle({ checked, label, world, send, command }: { checked: boolean; label: string; world: World; send: Send; command: (on: boolean) => Parameters<Send>[0] }) {
  const [msg, setMsg] = useState<string | null>(null);
  return (
    <div class="row small" style={{ margin: '4px 0' }}>
      <label style={{ fontWeight: 400 }}>
        <input
          type="checkbox"
          checked={checked}
          style={{ minHeight: 'auto' }}
          onChange={async (e) => {
            const r = await send(command(e.currentTarget.checked));
            setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
          }}
        />{' '}
        {label}
      </label>
      {msg === null ? null : (
        <span class="error small" role="alert">
          {msg}
        </span>
      )}
    </div>
  );
}

/** Extra actions from one of the economy's pools (a haste, a rule's bonus action), counted with the turn's own. */
function GrantAction({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const pools = Object.keys(encounterOf(world)?.economyDef?.pools ?? {});
  const id = `grant-${c.id}`;
  return (
    <InlineForm
      label={`Grant ${c.name} an extra action`}
      button="Grant"
      buttonLabel={`Grant ${c.name} an extra action`}
      act={async (form) => {
        const f = new FormData(form);
        const n = Number(String(f.get('n') ?? '1').trim() || '1');
        if (!Number.isInteger(n) || n < 1 || n > 10) return 'How many is a whole number from 1 to 10.';
        const r = await send({ type: 'encounter.grant', characterId: c.id, pool: String(f.get('pool') ?? pools[0]), n });
        return r.ok ? null : sentenceOf(r.rejection, namesOf(world));
      }}
    >
      <label for={id}>Extra</label>
      <input id={`${id}-n`} name="n" inputMode="numeric" maxLength={2} defaultValue="1" aria-label={`How many extra actions for ${c.name}`} style={{ width: '3em' }} />
      <select id={id} name="pool" aria-label={`Which action ${c.name} gets`}>
        {pools.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </InlineForm>
  );
}

/** A hidden foe shown to the players when its turn starts (ADR 71): the engine reveals it and logs it for everyone. */
function RevealWhenActs({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  return <CommandToggle checked={revealMarks(world).includes(c.id)} label={`Reveal ${c.name} when its turn starts`} world={world} send={send} command={(on) => ({ type: 'revealWhenActs.set', characterId: c.id, on })} />;
}

/**
 * An OSR foe that joined without an AC is no target (attacks name characters):
 * typing its AC here makes the character it plays and links the two.
 */
function FoeArmour({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const latest = useRef(world);
  latest.current = world;
  const id = `ac-${c.id}`;
  const go = async (form: HTMLFormElement) => {
    const cmd = foeArmourCommand(world.rulesetId, c, String(new FormData(form).get('ac') ?? ''), c.characterId === null ? undefined : world.characters[c.characterId]);
    if (cmd === null) return null;
    if (!cmd.ok) return cmd.message;
    if (cmd.value.type !== 'character.add') {
      const r = await send(cmd.value);
      return r.ok ? null : sentenceOf(r.rejection, namesOf(latest.current));
    }
    const made = await characterAdder(send, () => latest.current, (r) => sentenceOf(r, namesOf(latest.current)))(cmd.value, c.name);
    if (!made.ok) return made.message;
    const r = await send({ type: 'encounter.link', characterId: c.id, playsId: made.value });
    return r.ok ? null : sentenceOf(r.rejection, namesOf(latest.current));
  };
  return (
    <InlineForm label={`Give ${c.name} an AC`} button="Set AC" buttonLabel={`Set AC for ${c.name}`} act={go}>
      <label for={id}>AC (so it can be attacked)</label>
      <input id={id} name="ac" inputMode="numeric" maxLength={2} style={{ width: '4em' }} />
    </InlineForm>
  );
}

/**
 * The condition picker: the ruleset's catalogue from the view, the table's
 * saved conditions, or a name of the GM's own (which "Save for this table"
 * keeps, ADR 71); durations the ruleset supports (save ends only where saves
 * are rolled); stacks. One condition.apply.
 */
function ConditionPicker({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const enc = encounterOf(world);
  const catalogue = enc?.catalogue;
  const [choice, setChoice] = useState<string>(catalogue?.conditions[0]?.id ?? CUSTOM);
  const [dur, setDur] = useState<string>('rounds');
  const saved = savedConditions(world);
  const apply = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const custom = String(f.get('custom') ?? '');
    const rounds = String(f.get('rounds') ?? '');
    const cmd = conditionCommand(c.id, { choice, custom, duration: dur, rounds, stacks: String(f.get('stacks') ?? '') });
    if (!cmd.ok) return cmd.message;
    // Saved first, so the picker offers it from now on; a name the table already keeps is just applied.
    const known = saved.some((s) => s.name.toLowerCase() === custom.trim().replace(/\s+/g, ' ').toLowerCase());
    if (choice === CUSTOM && f.get('keep') === 'on' && !known) {
      const keep = saveConditionCommand({ name: custom, description: String(f.get('description') ?? ''), duration: dur, rounds });
      if (!keep.ok) return keep.message;
      const k = await send(keep.value);
      if (!k.ok) return sentenceOf(k.rejection, namesOf(world));
    }
    const r = await send(cmd.value);
    return r.ok ? null : sentenceOf(r.rejection, namesOf(world));
  };
  return (
    <InlineForm label={`Apply a condition to ${c.name}`} button="Apply" act={apply}>
      <ConditionFields idPrefix={`cond-${c.id}`} forName={c.name} catalogue={catalogue} saved={saved} choice={choice} setChoice={setChoice} duration={dur} setDuration={setDur} maxRounds={1000} stacks />
      {choice === CUSTOM ? (
        <>
          <label for={`cond-${c.id}-desc`} class="sr-only">
            What it means (optional)
          </label>
          <input id={`cond-${c.id}-desc`} name="description" maxLength={300} placeholder="What it means (optional)" style={{ width: '12em' }} />
          <label class="row small" style={{ fontWeight: 400 }}>
            <input type="checkbox" name="keep" style={{ minHeight: 'auto' }} /> Save for this table
          </label>
        </>
      ) : null}
    </InlineForm>
  );
}

/** Move a running combatant in the order (a new DEX score, another band): encounter.place. */
function AdjustPlace({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const method = initiativeOf(world.rulesetId);
  const f = adjustField(method);
  if (f === null) return null;
  const id = `place-${c.id}`;
  const now = c.placement !== null && typeof c.placement === 'object' && !Array.isArray(c.placement) ? c.placement[f.key] : undefined;
  const go = async (form: HTMLFormElement) => {
    const cmd = placeCommand(method, c.id, String(new FormData(form).get('place') ?? ''));
    if (!cmd.ok) return cmd.message;
    const r = await send(cmd.value);
    return r.ok ? null : sentenceOf(r.rejection, namesOf(world));
  };
  return (
    <InlineForm label={`Move ${c.name} in the turn order`} button="Move" act={go}>
      <label for={id}>{f.label}</label>
      {f.type === 'choice' ? (
        // Opens on the creature's band: Preact has no select defaultValue, so each option says whether it is the one (review 7).
        <select id={id} name="place">
          {(f.choices ?? []).map((x) => (
            <option key={x} value={x} selected={x === now}>
              {words(x)}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name="place" inputMode="numeric" maxLength={5} defaultValue={typeof now === 'number' ? String(now) : ''} style={{ width: '5em' }} />
      )}
    </InlineForm>
  );
}

/**
 * OSR on the tracker (a GM review finding: both lived only in "Any command"):
 * Stabilize a dying character, with who helps and the DC (001 "Stabilizing &
 * Injuries"); a morale check for this foe's side (001 "Morale", DC 11).
 */
function OsrRowActions({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const enc = encounterOf(world);
  if (enc === null) return null;
  const r = osrRowCommands(world, enc, c);
  const words = (x: { ok: boolean; rejection?: Parameters<typeof sentenceOf>[0] }) => (x.ok || x.rejection === undefined ? null : sentenceOf(x.rejection, namesOf(world)));
  return (
    <>
      {/* A character in stealth: its badge and Spotted are on the row itself (GmRow's InStealth). */}
      {r.stabilize !== null ? (
        <InlineForm
          label={`Stabilize ${c.name}`}
          button="Stabilize"
          buttonLabel={`Stabilize ${c.name}`}
          act={async (form) => {
            const f = new FormData(form);
            const dc = Number(String(f.get('dc') ?? '10').trim() || '10');
            if (!Number.isInteger(dc) || dc < 1 || dc > 40) return 'The DC is a whole number from 1 to 40.';
            const helper = String(f.get('helper') ?? '');
            return words(await send({ type: 'osr.stabilize', targetId: r.stabilize!.targetId, method: 'check', difficulty: dc, ...(helper !== '' ? { helperId: helper } : {}) }));
          }}
        >
          <label for={`stab-by-${c.id}`}>Who helps</label>
          <select id={`stab-by-${c.id}`} name="helper">
            <option value="">the GM rolls</option>
            {r.stabilize.helpers.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
          <label for={`stab-dc-${c.id}`}>DC</label>
          <input id={`stab-dc-${c.id}`} name="dc" inputMode="numeric" maxLength={2} defaultValue="10" style={{ width: '3.5em' }} />
        </InlineForm>
      ) : null}
      {r.morale !== null ? (
        <InlineForm
          label={`Morale for ${c.name}'s side`}
          button="Check morale"
          buttonLabel={`Check morale for ${c.name}'s side (${r.morale.characterIds.length})`}
          act={async () => words(await send({ type: 'osr.morale', characterIds: r.morale!.characterIds, as: 'side' }))}
        >
          <span class="small muted">{r.morale.characterIds.length} standing on this side; DC 11.</span>
        </InlineForm>
      ) : null}
    </>
  );
}

