// The GM's parts of a tracker row (issue 20): hide / show as Unknown / reveal,
// the damage box, the row tools (±1, conditions, and the ruleset's row actions). Loaded
// only on the GM screen, so a phone's bundle never carries them.
import { useState } from 'preact/hooks';
import type { Combatant, World } from '@tablekeeper/engine';
import { capabilitiesOf, damageBoxOffersNonlethal, damageTypesFor, getOsr, hasPanel } from '@tablekeeper/rulesets/browser';
import { damageCommand } from '../lib/damage.ts';
import { namesOf, tracksOf } from '../lib/encounter.ts';
import { sheetTrackOf } from '../lib/sheetTrack.ts';
import { sentenceOf } from '../lib/words.ts';
import { InlineForm } from './InlineForm.tsx';
import { lazyPanel } from './LazyPanels.tsx';
import type { Send } from './types.ts';

// The row tools, loaded when a row is first opened (declared here: a phone never shows them).
const RowTools = lazyPanel(() => import('./RowTools.tsx').then((m) => m.RowTools), 'small');

/** The damage box and the row tools of one combatant. */
export function GmRowParts({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  return (
    <>
      {hasPanel(world.rulesetId, 'rowActions') && c.characterId !== null && getOsr(world).hidden.includes(c.characterId) ? <InStealth c={c} world={world} send={send} /> : null}
      <Visibility c={c} world={world} send={send} />
      <DamageBox c={c} world={world} send={send} />
      <GmRowTools c={c} world={world} send={send} />
    </>
  );
}

/**
 * An OSR character in stealth, on the row where the GM looks (review 13: "Spotted" sat under Adjust): the badge,
 * how it ends (001 "Positioning": it attacks, or is found) and the GM's Spotted (osr.reveal).
 */
function InStealth({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  return (
    <InlineForm
      label={`${c.name} is in stealth`}
      button="Spotted"
      buttonLabel={`${c.name} is spotted: end the stealth`}
      act={async () => {
        const r = await send({ type: 'osr.reveal', characterId: c.characterId! });
        return r.ok ? null : sentenceOf(r.rejection, namesOf(world));
      }}
    >
      <span class="badge warn" data-testid="in-stealth">
        in stealth
      </span>{' '}
      <span class="small muted">until {c.name} attacks or is spotted; no one can target {c.name} till then</span>
    </InlineForm>
  );
}

/**
 * Hide or reveal a combatant; a foe's own character (an OSR foe's, made
 * hidden with it) follows, else a revealed foe is on the tracker but no
 * target on the phones (a GM review finding: only the ally was offered).
 */
export async function toggleShown(c: Combatant, world: World, send: Send) {
  const to = c.visibility === 'visible' ? 'hidden' : 'visible';
  const r = await send({ type: to === 'visible' ? 'encounter.reveal' : 'encounter.hide', characterId: c.id });
  // OSR attacks name characters; other rulesets' foes keep their sheets by combatant (or, Daggerheart, their own visibility).
  const ch = capabilitiesOf(world.rulesetId).foeVisibilityOnCharacter && c.characterId !== null && c.kind === 'npc' ? world.characters[c.characterId] : undefined;
  if (r.ok && ch !== undefined && ch.kind === 'npc' && ch.visibility !== to) await send({ type: 'character.update', characterId: ch.id, visibility: to });
}

/**
 * What players see of a creature: Hide / Reveal, and the middle step (issue 20): players see that it
 * is there, as "Unknown", with no name or numbers. A foe whose numbers live on its character (OSR)
 * hides that character, so its sheet never reaches a phone; Reveal shows both again. GM-only chunk.
 */
function Visibility({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const [msg, setMsg] = useState<string | null>(null);
  const obscure = async () => {
    const r = await send({ type: 'encounter.obscure', characterId: c.id });
    if (!r.ok) return setMsg(sentenceOf(r.rejection, namesOf(world)));
    const ch = capabilitiesOf(world.rulesetId).foeVisibilityOnCharacter && c.characterId !== null && c.kind === 'npc' ? world.characters[c.characterId] : undefined;
    const h = ch !== undefined && ch.kind === 'npc' && ch.visibility !== 'hidden' ? await send({ type: 'character.update', characterId: ch.id, visibility: 'hidden' }) : null;
    setMsg(h === null || h.ok ? null : sentenceOf(h.rejection, namesOf(world)));
  };
  return (
    <div class="row small" role="group" aria-label={`What players see of ${c.name}`}>
      <button
        class="small"
        aria-label={`${c.visibility === 'visible' ? 'Hide' : 'Reveal'} ${c.name} ${c.visibility === 'visible' ? 'from' : 'to'} players`}
        aria-pressed={c.visibility !== 'visible'}
        onClick={() => void toggleShown(c, world, send)}
      >
        {c.visibility === 'visible' ? 'Hide' : c.visibility === 'existence' ? 'Reveal (shown as Unknown)' : 'Reveal'}
      </button>
      {c.visibility !== 'existence' ? (
        <button class="small" aria-label={`Show as Unknown to players: ${c.name}`} title="Players see that something is there, with no name or numbers" onClick={() => void obscure()}>
          Show as Unknown
        </button>
      ) : null}
      {msg === null ? null : (
        <span class="error" role="alert">
          {msg}
        </span>
      )}
    </div>
  );
}

/**
 * The damage box: type a number, press Damage or Heal (Enter deals damage). Logged and undoable on the server.
 * `c` is a combatant, or between fights a creature's kept sheet (its id and name: ADR 110).
 */
export function DamageBox({ c, world, send }: { c: Pick<Combatant, 'id' | 'name'>; world: World; send: Send }) {
  const id = `dmg-${c.id}`;
  const types = damageTypesFor(world, c.id);
  const go = async (form: HTMLFormElement, kind: string) => {
    const input = form.elements.namedItem('amount') as HTMLInputElement;
    const type = form.elements.namedItem('damageType') as HTMLSelectElement | null;
    const nonlethal = form.elements.namedItem('nonlethal') as HTMLInputElement | null;
    const cmd = damageCommand(world, c.id, kind === 'heal' ? 'heal' : 'damage', input.value, type?.value, nonlethal?.checked === true);
    if (!cmd.ok) return cmd.message;
    const r = await send(cmd.value);
    if (!r.ok) return sentenceOf(r.rejection, namesOf(world));
    input.value = '';
    // One blow at a time: the next one is lethal unless marked again.
    if (nonlethal !== null) nonlethal.checked = false;
    return null;
  };
  return (
    <InlineForm class="damage-box" label={`Damage or heal ${c.name}`} button="Damage" buttonLabel={`Damage ${c.name}`} more={[{ kind: 'heal', text: 'Heal', label: `Heal ${c.name}` }]} act={go}>
      <label class="sr-only" for={id}>
        Amount for {c.name}
      </label>
      <input id={id} name="amount" inputMode="numeric" maxLength={6} placeholder="amount" data-damage-box={c.id} autocomplete="off" />
      {types !== null ? (
        // 003 "Damage": the type decides whether deflection lessens it (review 7: the box had none).
        <select name="damageType" aria-label={`Damage type for ${c.name}`} class="small">
          {types.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      ) : null}
      {damageBoxOffersNonlethal(world, c.id) ? (
        // 003 "Death": damage from a nonlethal source that first takes the last health does not risk death.
        <label class="small" style={{ fontWeight: 400 }}>
          <input type="checkbox" name="nonlethal" aria-label={`Nonlethal damage to ${c.name}`} style={{ minHeight: 'auto' }} /> nonlethal
        </label>
      ) : null}
    </InlineForm>
  );
}

/**
 * GM tools on a row: ±1 on each health-like track, and applying a condition.
 * A value on the combatant itself (an NPC with no character) changes through
 * encounter.setStats; one on a linked character's sheet through character.update.
 */
function GmRowTools({ c, world, send }: { c: Combatant; world: World; send: Send }) {
  const ch = c.characterId ? world.characters[c.characterId] : undefined;
  const stats = { ...(ch?.stats ?? {}), ...c.stats };
  // A track the ruleset keeps on its sheet (36th Way, teams) changes by the damage box, not here.
  const onSheet = sheetTrackOf(world, c);
  // Daggerheart's marked slots change on its own board (Mark / Clear), not by ±1 here.
  const tracks: { key: string; label: string; value: number }[] = tracksOf(stats, world.rulesetId).filter((t) => !(t.key in onSheet) && !t.key.endsWith('Marked'));
  // HP with no maximum is still worth a button.
  if (typeof stats['hp'] === 'number' && !('hp' in onSheet) && !tracks.some((t) => t.key === 'hp')) tracks.unshift({ key: 'hp', label: 'HP', value: stats['hp'] });
  const set = (key: string, value: number) =>
    ch && !(key in c.stats) ? send({ type: 'character.update', characterId: ch.id, stats: { [key]: value } }) : send({ type: 'encounter.setStats', characterId: c.id, stats: { [key]: value } });
  // The tools render only while open: fifty closed rows stay cheap on every turn change.
  const [open, setOpen] = useState(false);
  return (
    <details class="small" style={{ marginTop: '4px' }} data-adjust={c.id} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Adjust {c.name}</summary>
      {open ? <RowTools c={c} world={world} send={send} tracks={tracks} set={set} /> : null}
    </details>
  );
}
