// Build the next encounter: the party is already lined up (from the last
// fight, or the table's PCs), foes are added by name ("Goblin x6"), and one
// "Roll initiative" starts it by the ruleset's own turn order.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import { addCommands, draftsFrom, edgeGroups, initiativeOf, MAX_EDGE_GROUPS, typeGroupOf, joinParty, partyDrafts, sheetSays, startCommand, teamsOf, WHO_STARTS, withDrafts, withSheets, words, type Draft, type InitiativeField } from '../lib/initiative.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { builderRows, lineupRequest } from '../lib/lineup.ts';
import { deadCharacters, hasPanel } from '@tablekeeper/rulesets/browser';
import { encounterGate } from '../lib/episode.ts';
import { characterAdder, foeSheetCommands, oneStep, quickStatsOf, readQuickStats, withFoeCharacters } from '../lib/foes.ts';
import { LingeringConditions } from './Lingering.tsx';
import { keepLineup, keepStarted, lastEnded, lineupStore, readKept, revealMarks, takeStarted } from '../lib/builderDraft.ts';
import type { Send } from './types.ts';
import { SurprisePicker } from './Surprise.tsx';
import { BetweenFights } from './BetweenFights.tsx';
import { ambushEscalationCommand, markUnsurprised, NO_SURPRISE, surpriseParam, type SurpriseChoice } from '../lib/surprise.ts';

/** A spotlight ruleset's builder (Daggerheart, 000): no initiative, the conflict starts from the Spotlight panel. */
export function SpotlightStart() {
  return (
    <p class="small muted" data-testid="spotlight-start">
      Daggerheart has no initiative: start a conflict from the Spotlight panel above, then pass the spotlight.
    </p>
  );
}

export function EncounterBuilder({ world, send, last }: { world: World; send: Send; last: EncounterState | null }) {
  const method = initiativeOf(world.rulesetId);
  const characters = Object.values(world.characters);
  const dead = deadCharacters(world);
  // A ruleset with Episodes (004) starts an Encounter only from inside one.
  const gate = hasPanel(world.rulesetId, 'episode') ? encounterGate(world) : null;
  // The GM's draft kept on this device (a reload keeps it, ADR 73), else the line-up of a start just undone (review 12 #3), else the party from the last fight.
  const keptAtOpen = useMemo(() => readKept(lineupStore(), world.tableId) ?? takeStarted(lineupStore(), world.tableId, lastEnded(last)), [last?.number]);
  const initial = useMemo(() => (keptAtOpen !== null && keptAtOpen.rows.length > 0 ? keptAtOpen.rows : partyDrafts(method, characters, last, undefined, dead)), [last?.number]);
  const [rows, setRows] = useState<Draft[]>(initial);
  // This encounter's initiative options, offered only where the ruleset's method allows them (ADR 73), kept with the line-up (ADR 81).
  const rerollSetting = method?.reroll.setting ?? null;
  const keptOptions = keptAtOpen?.options ?? {};
  const [reroll, setReroll] = useState<boolean | null>(rerollSetting !== null ? (keptOptions.reroll ?? null) : null);
  const rerollOn = reroll ?? (rerollSetting !== null && world.settings[rerollSetting] === true);
  const [grouping, setGrouping] = useState<'each' | 'type' | 'side'>(keptOptions.grouping !== undefined && (method?.groupBy.modes ?? []).includes(keptOptions.grouping) ? keptOptions.grouping : 'each');
  const [initiating, setInitiating] = useState<string>(keptOptions.initiating ?? '');
  const [surprise, setSurprise] = useState<SurpriseChoice>(keptOptions.surprise ?? NO_SURPRISE);
  const chosenOptions = { ...(reroll !== null ? { reroll } : {}), ...(grouping !== 'each' ? { grouping } : {}), ...(initiating !== '' ? { initiating } : {}), ...(surprise.side !== '' ? { surprise } : {}) };
  const kept = useRef(false);
  // Kept in the render that shows the change (a layout effect), not a frame later: a reload or a closed tab right
  // after a pick showed it on screen must not lose it (a passive effect waits for the next frame).
  useLayoutEffect(() => {
    // The first render only restores: the party drafted from the sheets is not a draft of the GM's until changed.
    if (!kept.current) {
      kept.current = true;
      return;
    }
    keepLineup(lineupStore(), world.tableId, rows, chosenOptions);
  }, [rows, reroll, grouping, initiating, surprise]);
  // One who dies after the line-up was drafted (001: the minute after a short fight) leaves it.
  const deadKey = dead.join(' ');
  useEffect(() => {
    if (dead.length > 0) setRows((old) => old.filter((r) => r.characterId === null || !dead.includes(r.characterId)));
  }, [deadKey]);
  // A PC who joins the table while the builder is open joins the line-up too (party first); one the GM took off stays off.
  const living = characters.filter((c) => c.kind === 'pc' && !dead.includes(c.id));
  const seen = useRef<Set<string>>(new Set(living.map((c) => c.id)));
  const livingKey = living.map((c) => c.id).join(' ');
  useEffect(() => {
    const fresh = living.filter((c) => !seen.current.has(c.id));
    for (const c of fresh) seen.current.add(c.id);
    if (fresh.length > 0) setRows((old) => joinParty(old, partyDrafts(method, fresh, last, undefined, dead)));
  }, [livingKey]);
  // One who leaves the table (removed, or the add undone) leaves the line-up, and joins again if they come back.
  const presentKey = characters.map((c) => c.id).join(' ');
  useEffect(() => {
    const present = new Set(characters.map((c) => c.id));
    for (const id of [...seen.current]) if (!present.has(id)) seen.current.delete(id);
    setRows((old) => (old.some((r) => r.characterId !== null && !present.has(r.characterId)) ? old.filter((r) => r.characterId === null || present.has(r.characterId)) : old));
  }, [presentKey]);
  const [error, setError] = useState<string | null>(null);
  // Shown and started as the sheets say now (a DEX or Edge Save the GM did not type follows its sheet, ADR 90).
  const lined = withSheets(method, rows, world.characters);
  const edgeSave = method?.order === 'edge-save';
  const groups = edgeSave ? edgeGroups(lined) : [];
  const options = { ...(rerollSetting !== null ? { rerollEachRound: rerollOn } : {}), groupInitiative: grouping };
  const teams = method?.order === 'teams' ? teamsOf(rows) : [];
  // The team the GM picked while it is still lined up; none until they pick (003 gives no default), one team starts itself.
  const starts = teams.includes(initiating) ? initiating : teams.length === 1 ? teams[0]! : '';
  const ended = last !== null && last.roster.length > 0;
  // Rows sent from the bestiary panel (foes from a stat block, a template's line-up).
  const request = lineupRequest.value;
  useEffect(() => {
    if (request === null) return;
    lineupRequest.value = null;
    const rename = request.rename;
    const renamed = (old: readonly Draft[]) => (rename === undefined ? old : old.map((r) => (r.characterId === null && r.name === rename.from ? { ...r, name: rename.to } : r)));
    setRows((old) => (request.replace ? [...request.drafts] : [...renamed(old), ...request.drafts]));
  }, [request]);
  useEffect(() => {
    builderRows.value = rows;
  }, [rows]);

  // The latest view, read while foes get what their ruleset's attack needs (their characters, their sheets).
  const latest = useRef(world);
  latest.current = world;
  const [busy, setBusy] = useState(false);
  const start = async () => {
    // What is wrong with the line-up is said before any foe's character is made.
    const check = startCommand(method, lined, world.characters, { ...(starts !== '' ? { initiating: starts } : {}), ...options });
    if (!check.ok) return setError(check.message);
    const ambush = surpriseParam(method, rows, surprise);
    if (!ambush.ok) return setError(ambush.message);
    setBusy(true);
    try {
      const ready = await withFoeCharacters(world.rulesetId, withSheets(method, rows, latest.current.characters), characterAdder(send, () => latest.current, (r) => sentenceOf(r)));
      if (!ready.ok) return setError(ready.message);
      // Foes that got their character keep it if the start is refused and tried again.
      setRows(ready.value);
      const c = startCommand(method, withSheets(method, ready.value, latest.current.characters), latest.current.characters, { ...(starts !== '' ? { initiating: starts } : {}), ...options });
      if (!c.ok) return setError(c.message);
      setError(null);
      // The start and its foes' sheets are one change: one Undo takes the fight back (ADR 70).
      // Hidden foes marked "reveal when it acts" carry their marks in the same change (their ids are the rows').
      const begin = ambush.value === null ? c.value : { ...c.value, combatants: markUnsurprised(method, ready.value, surprise, c.value.combatants), surprise: ambush.value };
      // The party's ambush may start the escalation die at 1 (002), in the same change as the start.
      const die = ambushEscalationCommand(method, ready.value, surprise);
      const r = await send(oneStep([begin, ...(die !== null ? [die] : []), ...foeSheetCommands(ready.value, latest.current), ...revealMarks(ready.value)]));
      if (!r.ok) return setError(sentenceOf(r.rejection));
      // Set aside, not thrown away: an Undo of this start brings the line-up back to fix and start again.
      keepStarted(lineupStore(), world.tableId, ready.value, { ...chosenOptions, ...(starts !== '' ? { initiating: starts } : {}) }, lastEnded(last));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="encounter-builder">
      {ended ? (
        <p class="small muted" data-testid="last-encounter">
          {last!.number !== undefined && last!.number > 1 ? `Encounter ${last!.number}` : 'The last encounter'} ended after round {last!.round}. Build the next one:
        </p>
      ) : null}
      {method ? <p class="small muted">{method.summary}</p> : null}
      <DraftForm world={world} prefix="build" label="Add to the next encounter" button="Add to encounter" lined={rows} onAdd={(d) => setRows(withDrafts(rows, d))} updatesLined onError={setError} />
      {rows.length > 0 ? (
        <ul class="builder-rows" aria-label="Combatants ready to start" data-testid="builder-rows">
          {lined.map((d) => (
            <li key={d.id}>
              <strong>{d.name}</strong>
              <span class="small muted">
                {d.kind === 'pc' ? 'PC' : 'foe'}
                {d.hp !== null ? ` · ${d.hp} HP` : ''}
                {/* The number attacks must reach (a Kleptonomicon stat block's Defense), which the GM checks before the fight (review 9). */}
                {typeof d.extra?.['defense'] === 'number' ? ` · Defense ${d.extra['defense']}` : ''}
                {/* A Kleptonomicon foe's Basic Attack (typed here or from its stat block), which its attack form starts from (review 13 #3). */}
                {basicAttackWords(d.extra)}
                {Object.entries(d.init).map(([k, v]) => {
                  // A number the GM typed over the sheet's says so, with the sheet's (ADR 90).
                  const sheet = sheetSays(method, d, k, world.characters);
                  return ` · ${method?.fields.find((f) => f.key === k)?.label ?? k} ${typeof v === 'string' ? words(v) : v}${sheet !== null ? ` (typed here; the sheet says ${sheet})` : ''}`;
                })}
                {d.hidden ? (d.revealWhenActs === true ? ' · hidden until it acts' : ' · hidden') : ''}
              </span>
              {d.hidden ? (
                <label class="row small" style={{ fontWeight: 400 }}>
                  <input
                    type="checkbox"
                    style={{ minHeight: 'auto' }}
                    checked={d.revealWhenActs === true}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setRows(rows.map((x) => (x.id === d.id ? { ...x, revealWhenActs: on } : x)));
                    }}
                  />{' '}
                  reveal {d.name} when it acts
                </label>
              ) : null}
              {edgeSave && d.kind === 'npc' ? (
                // 004 "Turn Order": the GM may regroup the NPCs into two to four groups; by type until picked.
                <label class="row small" style={{ fontWeight: 400 }}>
                  Edge Save group{' '}
                  <select
                    aria-label={`${d.name}'s Edge Save group`}
                    value={d.edgeGroup === undefined ? '' : String(d.edgeGroup)}
                    onChange={(e) => {
                      const n = Number(e.currentTarget.value);
                      setRows(rows.map((x) => (x.id !== d.id ? x : e.currentTarget.value === '' ? { ...x, edgeGroup: undefined } : { ...x, edgeGroup: n })));
                    }}
                  >
                    <option value="">by type (group {typeGroupOf(lined, d.id)})</option>
                    {Array.from({ length: MAX_EDGE_GROUPS }, (_, i) => (
                      <option key={i} value={String(i + 1)}>
                        group {i + 1}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <button class="small" aria-label={`Take ${d.name} off the list`} onClick={() => setRows(rows.filter((x) => x.id !== d.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="small muted">Nobody lined up yet: add the party and the foes.</p>
      )}
      {edgeSave && groups.length > 0 ? (
        // The groups each PC's Edge Saves go against, in order, shown before anything is rolled.
        <p class="small" data-testid="edge-groups">
          Edge Save groups, in order: {groups.map((g, i) => `${i + 1}. ${g.map((id) => lined.find((d) => d.id === id)?.name ?? id).join(', ')}`).join('; ')}
        </p>
      ) : null}
      {characters.some((c) => c.kind === 'pc' && !dead.includes(c.id) && !rows.some((r) => r.characterId === c.id)) ? (
        // Apart from Roll initiative below it (review 9: the two buttons touched).
        <button class="small" style={{ marginBottom: '8px' }} onClick={() => setRows([...rows, ...partyDrafts(method, characters.filter((c) => !rows.some((r) => r.characterId === c.id)), last, undefined, dead)])}>
          Add the party
        </button>
      ) : null}
      {teams.length > 1 ? (
        // Asked for every fight (003 "Initiative and Rounds": the initiating team goes first); the button repeats the answer.
        <div class="field" style={{ maxWidth: '16em' }} data-testid="who-starts">
          <label for="build-initiating">Who starts the fight</label>
          <select id="build-initiating" value={starts} required aria-describedby="build-initiating-help" aria-invalid={starts === '' && error === WHO_STARTS ? 'true' : undefined} onChange={(e) => setInitiating(e.currentTarget.value)}>
            <option value="" disabled>
              choose a team…
            </option>
            {teams.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <span id="build-initiating-help" class="small muted" data-testid="who-starts-help">
            {starts === '' ? 'Required: the team of whoever began the fight goes first.' : `${starts} act first, then the others in turn.`}
          </span>
        </div>
      ) : null}
      <SurprisePicker method={method} rows={rows} choice={surprise} onChange={setSurprise} />
      {rerollSetting !== null || (method?.groupBy.modes.length ?? 0) > 0 ? (
        <fieldset class="small" data-testid="initiative-options">
          <legend>Initiative options</legend>
          {rerollSetting !== null ? (
            <label class="row" style={{ fontWeight: 400 }} title={method!.reroll.why}>
              <input type="checkbox" style={{ minHeight: 'auto' }} checked={rerollOn} onChange={(e) => setReroll(e.currentTarget.checked)} /> Re-roll initiative each round
            </label>
          ) : null}
          {(method?.groupBy.modes.length ?? 0) > 0 ? (
            <span class="inline-field">
              <label for="build-grouping">Foes' initiative</label>
              <select id="build-grouping" value={grouping} aria-describedby="build-grouping-help" onChange={(e) => setGrouping(e.currentTarget.value === 'type' ? 'type' : e.currentTarget.value === 'side' ? 'side' : 'each')}>
                <option value="each">each its own</option>
                {method!.groupBy.modes.includes('type') ? <option value="type">one per foe type</option> : null}
                {method!.groupBy.modes.includes('side') ? <option value="side">one for all foes</option> : null}
              </select>
              <span id="build-grouping-help" class="small muted">
                {grouping === 'each' ? '' : method!.groupBy.why}
              </span>
            </span>
          ) : null}
        </fieldset>
      ) : null}
      {/* What the last fight left on someone, against this line-up (ADR 66). */}
      <LingeringConditions world={world} enc={last} lined={rows.flatMap((r) => (r.characterId === null ? [r.id] : [r.id, r.characterId]))} send={send} />
      {error ? (
        <p class="error small" role="alert" data-testid="builder-error">
          {error}
        </p>
      ) : null}
      {gate !== null ? (
        // The Kleptonomicon's phases lead to an Encounter: say why not yet, and offer the step that leads there.
        <p class="small" role="status" data-testid="encounter-gate">
          {gate.reason}{' '}
          <button class="small" onClick={() => void send({ type: gate.step.type })}>
            {gate.step.label}
          </button>
        </p>
      ) : null}
      <button class="primary" disabled={rows.length === 0 || busy || gate?.blocks === true} onClick={() => void start()} data-testid="roll-initiative">
        Roll initiative{teams.length > 1 && starts !== '' ? ` (${starts} first)` : ''}
      </button>
      <BetweenFights world={world} send={send} />
    </div>
  );
}

/** " · Basic Attack +3, 1d6" for a foe whose line carries its Basic Attack's numbers, else nothing. */
function basicAttackWords(extra: Draft['extra']): string {
  const m = extra?.['attackModifier'];
  const d = extra?.['attackDamage'];
  if (typeof m !== 'number' && typeof d !== 'string') return '';
  const mod = typeof m === 'number' ? `${m >= 0 ? '+' : ''}${m}` : '+0';
  return ` · Basic Attack ${mod}${typeof d === 'string' ? `, ${d}` : ', no damage dice'}`;
}

function InitField({ f, kind, prefix }: { f: InitiativeField; kind: 'pc' | 'npc'; prefix: string }) {
  const id = `${prefix}-init-${f.key}`;
  const hint = `${f.defaultFor[kind]}`;
  return (
    <div class="field" style={{ width: f.type === 'text' ? '9em' : '7em' }}>
      <label for={id}>{f.label}</label>
      {f.type === 'choice' ? (
        <select id={id} name={`init-${f.key}`}>
          {(f.choices ?? []).map((c) => (
            <option key={c} value={c} selected={c === String(f.defaultFor[kind])}>
              {words(c)}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={`init-${f.key}`} inputMode={f.type === 'int' ? 'numeric' : 'text'} maxLength={f.type === 'int' ? 4 : 64} placeholder={f.fromSheet ? `sheet or ${hint}` : hint} />
      )}
    </div>
  );
}

/** One line of the builder: a character or a name ("Goblin x6"), its initiative value, HP, hidden. */
/** `updatesLined`: a character already lined up is updated, not refused (the builder, where the party joins by itself: ADR 74). */
export function DraftForm(props: { world: World; prefix: string; label: string; button: string; lined: readonly Draft[]; onAdd: (drafts: Draft[]) => void; onError: (message: string | null) => void; updatesLined?: boolean }) {
  const { world, prefix, label, button, lined, onAdd, onError, updatesLined = false } = props;
  const method = initiativeOf(world.rulesetId);
  // Not offered again: whoever is in the running fight, and the foes' own characters from the last one (lib/foes.ts).
  const enc = encounterOf(world);
  const fought = new Set(Object.values(enc?.combatants ?? {}).map((c) => c.characterId));
  const characters = Object.values(world.characters).filter((c) => !fought.has(c.id) || (c.kind === 'pc' && enc?.active !== true));
  const dead = deadCharacters(world);
  const [kind, setKind] = useState<'pc' | 'npc'>('npc');
  const [charId, setCharId] = useState('');
  const [hiding, setHiding] = useState(false);
  const character = world.characters[charId] ?? null;
  const rowKind = character?.kind ?? kind;
  const add = (form: HTMLFormElement) => {
    const f = new FormData(form);
    const init: Record<string, string> = {};
    for (const field of method?.fields ?? []) init[field.key] = String(f.get(`init-${field.key}`) ?? '');
    const hidden = f.get('hidden') === 'on';
    const drafted = draftsFrom(method, { name: String(f.get('name') ?? ''), kind: rowKind, character, hp: String(f.get('hp') ?? ''), hidden, revealWhenActs: hidden && f.get('reveal') === 'on', init });
    if (!drafted.ok) return onError(drafted.message);
    // A foe's quick stats (OSR AC, 36th Way defences, teams evasion) make it a target (lib/foes.ts).
    const quick = readQuickStats(world.rulesetId, Object.fromEntries(quickStatsOf(world.rulesetId).map((q) => [q.key, String(f.get(`quick-${q.key}`) ?? '')])));
    if (!quick.ok) return onError(quick.message);
    const d = character !== null || Object.keys(quick.value).length === 0 ? drafted : { ok: true as const, value: drafted.value.map((x) => ({ ...x, extra: { ...(x.extra ?? {}), ...quick.value } })) };
    if (character && !updatesLined && lined.some((r) => r.characterId === character.id)) return onError(`${character.name} is already lined up.`);
    if (lined.length + d.value.length > 200) return onError('An encounter may have at most 200 combatants.');
    onError(null);
    onAdd(d.value);
    // The initiative choice (a band...) stays for the next line: a reset to the first band made the next foes "very fast" unasked.
    const kept = [...form.querySelectorAll<HTMLSelectElement>('select[name^="init-"]')].map((x) => [x, x.value] as const);
    form.reset();
    for (const [x, v] of kept) x.value = v;
    setCharId('');
    setHiding(false);
    (form.querySelector('input[name=name]') as HTMLInputElement | null)?.focus();
  };
  return (
  <form
          aria-label={label}
          onSubmit={(e) => {
            e.preventDefault();
            add(e.currentTarget);
          }}
        >
          <div class="row">
            {characters.length > 0 ? (
              <div class="field" style={{ width: '10em' }}>
                <label for={`${prefix}-char`}>Character</label>
                <select id={`${prefix}-char`} name="character" value={charId} onChange={(e) => setCharId(e.currentTarget.value)}>
                  <option value="">(a new foe or ally)</option>
                  {characters.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                      {dead.includes(c.id) ? ' (dead)' : ''}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <div class="field grow">
              <label for={`${prefix}-name`}>Name</label>
              <input id={`${prefix}-name`} name="name" maxLength={90} autocomplete="off" placeholder="Goblin x6" aria-describedby={`${prefix}-name-help`} />
              <span id={`${prefix}-name-help`} class="sr-only">
                Add a count after x for a group: Goblin x6 adds Goblin 1 to Goblin 6.
              </span>
            </div>
            {character ? null : (
              <div class="field" style={{ width: '7em' }}>
                <label for={`${prefix}-kind`}>Kind</label>
                <select id={`${prefix}-kind`} name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value === 'pc' ? 'pc' : 'npc')}>
                  <option value="npc">Foe (NPC)</option>
                  <option value="pc">Ally (PC)</option>
                </select>
              </div>
            )}
            {(method?.fields ?? []).filter((f) => f.only === undefined || f.only === rowKind).map((f) => (
              <InitField key={f.key} f={f} kind={rowKind} prefix={prefix} />
            ))}
            {character === null && rowKind === 'npc'
              ? quickStatsOf(world.rulesetId).map((q) => (
                  <div class="field" style={{ width: q.label.length > 8 ? '8em' : '5em' }} key={q.key}>
                    <label for={`${prefix}-quick-${q.key}`}>{q.label}</label>
                    {q.dice === true ? (
                      <input id={`${prefix}-quick-${q.key}`} name={`quick-${q.key}`} maxLength={20} autocomplete="off" placeholder="1d6" title={q.hint} />
                    ) : (
                      <input id={`${prefix}-quick-${q.key}`} name={`quick-${q.key}`} inputMode="numeric" maxLength={3} title={`${q.label}, ${q.min} to ${q.max}: ${q.hint ?? 'what an attack against it rolls against'}`} />
                    )}
                  </div>
                ))
              : null}
            <div class="field" style={{ width: '5em' }}>
              <label for={`${prefix}-hp`}>HP</label>
              <input id={`${prefix}-hp`} name="hp" inputMode="numeric" maxLength={5} />
            </div>
            <label class="row small" style={{ fontWeight: 400 }}>
              <input type="checkbox" name="hidden" style={{ minHeight: 'auto' }} title="Hidden from players until you reveal it" checked={hiding} onChange={(e) => setHiding(e.currentTarget.checked)} /> hidden
            </label>
            {hiding ? (
              // ADR 71 left this to a click on the row after the start; here it goes with the line (ADR 73).
              <label class="row small" style={{ fontWeight: 400 }}>
                <input type="checkbox" name="reveal" style={{ minHeight: 'auto' }} title="Shown to the players when its first turn starts" /> reveal when it acts
              </label>
            ) : null}
          </div>
          <button type="submit">{button}</button>
        </form>
  );
}

/**
 * Under the running fight: add foes or allies to it ("Goblin x6" too), placed by the ruleset's own order; then the
 * damage box for those it does not hold (ADR 119), mounted from this GM-only chunk, which already carries it.
 */
export function AddCombatant({ send, world, enc }: { send: Send; world: World; enc: EncounterState }) {
  const [msg, setMsg] = useState<string | null>(null);
  const latest = useRef(world);
  latest.current = world;
  return (
    <>
    <details style={{ marginTop: '8px' }}>
      <summary>Add a combatant</summary>
      <DraftForm
        world={world}
        prefix="add"
        label="Add to this encounter"
        button="Add"
        lined={[]}
        onError={setMsg}
        onAdd={async (drafts) => {
          const ready = await withFoeCharacters(world.rulesetId, drafts, characterAdder(send, () => latest.current, (r) => sentenceOf(r)));
          if (!ready.ok) return setMsg(ready.message);
          // The adds and the sheets they need: one change, one Undo (ADR 70).
          const adds = addCommands(initiativeOf(world.rulesetId), ready.value, enc, latest.current.characters);
          const r = await send(oneStep([...adds, ...foeSheetCommands(ready.value, latest.current), ...revealMarks(ready.value)]));
          setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
        }}
      />
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
    </details>
    <BetweenFights world={world} send={send} fight={enc} />
    </>
  );
}
