// The GM's Daggerheart board: Fear, the spotlight, "ask for a roll", the
// party's trackers with damage boxes, the adversaries (added from the
// bestiary) with their moves, and rests. Every change is a declared command the server decides.
import { useEffect, useState } from 'preact/hooks';
import { foeRevealOf, spotlightTokens, tokensLeft, type Character, type Json, type World } from '@tablekeeper/engine';
import { encounterOf } from '../../lib/encounter.ts';
import { builderRows, lineupRequest } from '../../lib/lineup.ts';
import { adversariesOf, adversaryMoves, againstWords, conflictLineUp, fearOf, isDefeatedAdversary, isHiddenAdversary, rollFoes, DOWNTIME, helpersOf, lastRoll, oddsLines, openRequests, pcsOf, requestWords, TRAIT_NAMES, tracksOfCharacter, waitingHits, type RollOdds } from '../../lib/daggerheart.ts';
import type { RollRequest } from '@tablekeeper/rulesets/browser';
import type { QueryAnswer } from '../../net/codec.ts';
import type { TransactionView } from '../../net/view.ts';
import { Field } from '../Field.tsx';
import type { Send } from '../types.ts';
import { LingeringConditions } from '../Lingering.tsx';
import { CharacterTracks, DamageBox, DualityDice, FearTracker } from './Trackers.tsx';
import { HitChoice } from './HitChoice.tsx';
import { EndEncounter } from '../EndEncounter.tsx';

type Ask = (name: string, args: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

export function DaggerheartGmBoard({ world, history, send, ask }: { world: World; history: readonly TransactionView[]; send: Send; ask?: Ask }) {
  const roll = lastRoll(history);
  return (
    <div class="dh-board" data-testid="daggerheart-gm">
      <FearTracker world={world} gm send={send} />
      {/* A hit waits for its PC's Armor choice; the GM may answer for a PC without a phone. */}
      {waitingHits(world).map((h) => (
        <HitChoice key={h.id} world={world} hit={h} send={send} ask={ask} />
      ))}
      <SpotlightPanel world={world} send={send} />
      <RequestPanel world={world} send={send} ask={ask} />
      {roll ? (
        <section class="panel" aria-labelledby="dh-last-title">
          <h2 id="dh-last-title">Last action roll</h2>
          <DualityDice roll={roll} who={roll.characterId ? (world.characters[roll.characterId]?.name ?? 'Someone') : 'The GM'} />
        </section>
      ) : null}
      <PartyPanel world={world} send={send} />
      <AdversaryPanel world={world} send={send} />
      <RestPanel world={world} send={send} />
    </div>
  );
}

function combatantFor(c: Character): { [k: string]: Json } {
  const visibility = c.visibility === 'visible' || c.visibility === 'hidden' ? c.visibility : 'existence';
  return { id: c.id, name: c.name, kind: c.kind, characterId: c.id, side: c.kind === 'pc' ? 'pcs' : 'adversaries', visibility };
}

function SpotlightPanel({ world, send }: { world: World; send: Send }) {
  const enc = encounterOf(world);
  const active = enc?.active === true;
  const roster = active ? enc!.roster.map((id) => enc!.combatants[id]!).filter(Boolean) : [];
  const { everyone, carried, leftOut } = conflictLineUp(world);
  // The GM's ticks; unticked by default are the last conflict's survivors (review 10: Encounter 2 brought them back unasked).
  const [ticked, setTicked] = useState<{ readonly [id: string]: boolean }>({});
  const joins = (id: string) => ticked[id] ?? !carried.includes(id);
  const joining = everyone.filter((c) => joins(c.id));
  // The ticked line-up is what "Save the line-up" keeps before a conflict, and a template's Use ticks its own (review 13 #9).
  const joiningKey = joining.map((c) => c.id).join('|');
  useEffect(() => {
    if (!active) builderRows.value = joining.map((c) => ({ id: c.id, name: c.name, kind: c.kind, characterId: c.id, hp: null, hidden: c.visibility === 'hidden', init: {} }));
  }, [active, joiningKey]);
  const request = lineupRequest.value;
  useEffect(() => {
    if (request === null || !request.replace || active) return;
    const wanted = new Set(request.drafts.map((d) => d.characterId));
    setTicked(Object.fromEntries(everyone.map((c) => [c.id, wanted.has(c.id)])));
    lineupRequest.value = null;
  }, [request, active]);
  const standing = everyone.filter((c) => c.kind !== 'pc');
  const tokens = active ? spotlightTokens(enc!) : { perPc: 0, spent: {}, gm: 0 };
  const noFear = (fearOf(world).fear ?? 0) < 1;
  return (
    <section class="panel" aria-labelledby="dh-spot-title" data-testid="spotlight">
      <h2 id="dh-spot-title">Spotlight</h2>
      {!active ? (
        <div class="row">
          {standing.length > 0 ? (
            <fieldset class="row small" data-testid="conflict-adversaries">
              <legend>Adversaries who join</legend>
              {standing.map((c) => (
                <label key={c.id}>
                  <input type="checkbox" checked={joins(c.id)} onChange={(e) => setTicked({ ...ticked, [c.id]: e.currentTarget.checked })} /> Bring {c.name}
                  {c.visibility === 'hidden' ? ' (hidden)' : ''}
                  {carried.includes(c.id) ? <span class="muted"> · from the last conflict</span> : null}
                </label>
              ))}
            </fieldset>
          ) : null}
          <button class="primary" disabled={joining.length === 0} onClick={() => void send({ type: 'encounter.start', combatants: joining.map(combatantFor) }).then((r) => r.ok && setTicked({}))}>
            Start a conflict ({joining.length})
          </button>
          {leftOut.length > 0 ? (
            <span class="small muted" data-testid="conflict-left-out">
              Defeated, left out: {leftOut.join(', ')}
            </span>
          ) : null}
          {/* A Vulnerable adversary benched now keeps it for a later conflict unless cleared here (ADR 66). */}
          <LingeringConditions world={world} enc={enc} lined={joining.map((c) => c.id)} send={send} />
        </div>
      ) : (
        <>
          {/* Not live: the tracker's turn announcer says whose spotlight it is (review 13 #14). */}
          <p class="small">
            {enc!.current ? (
              <>
                Now: <span class="dh-holder" data-testid="spotlight-holder">{enc!.combatants[enc!.current]?.name}</span>
              </>
            ) : (
              'The GM passes the spotlight.'
            )}
          </p>
          {tokens.perPc > 0 ? (
            <p class="small" data-testid="action-tokens">
              Action tokens: {roster.filter((c) => c.kind === 'pc').map((c) => `${c.name} ${tokensLeft(enc!, c.id)}/${tokens.perPc}`).join(' · ')} · GM {tokens.gm}
            </p>
          ) : null}
          {/* Taking the spotlight costs 1 Fear (000): at 0 the buttons are off, and this says why (review 13 #15). */}
          {noFear ? (
            <p class="small muted" id="dh-no-fear" data-testid="no-fear">
              The GM has 0 Fear: taking the spotlight for an adversary costs 1.
            </p>
          ) : null}
          <ul class="list">
            {roster.map((c) => {
              // Every HP slot marked: out of the conflict, so the spotlight skips them (the engine refuses it too).
              const ch = c.characterId === null ? undefined : world.characters[c.characterId];
              if (ch !== undefined && isDefeatedAdversary(world, ch))
                return (
                  <li key={c.id} class="row muted" data-testid="spotlight-down">
                    <span>{c.name}</span> <span class="badge bad">down</span>
                  </li>
                );
              return (
                <li key={c.id} class="row">
                  <span class={c.id === enc!.current ? 'dh-holder' : ''}>{c.name}</span>
                  {c.visibility !== 'visible' ? <span class="badge">{c.visibility === 'hidden' ? 'hidden' : 'shown as Unknown'}</span> : null}
                  <button class="small" aria-current={c.id === enc!.current ? 'true' : undefined} onClick={() => void send({ type: 'daggerheart.passSpotlight', combatantId: c.id })}>
                    Spotlight {c.name}
                  </button>
                  {c.kind === 'npc' ? (
                    <button class="small" disabled={noFear} aria-describedby={noFear ? 'dh-no-fear' : undefined} onClick={() => void send({ type: 'daggerheart.takeSpotlight', combatantId: c.id })}>
                      Take with Fear: {c.name}
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {/* A hit still waiting on an Armor choice is named first: ending lands it bare (ADR 79). */}
          <EndEncounter world={world} send={send} primary={false} label="End the conflict" testId="end-conflict" />
        </>
      )}
    </section>
  );
}

function RequestPanel({ world, send, ask }: { world: World; send: Send; ask: Ask | undefined }) {
  const pcs = pcsOf(world);
  const [who, setWho] = useState('');
  const [trait, setTrait] = useState('');
  const [difficulty, setDifficulty] = useState('12');
  const [hidden, setHidden] = useState(false);
  const [advantage, setAdvantage] = useState('0');
  const [experience, setExperience] = useState('');
  const [bonus, setBonus] = useState('2');
  const [modifier, setModifier] = useState('0');
  const [against, setAgainst] = useState('');
  const target = pcs.find((c) => c.id === who) ?? pcs[0];
  const open = openRequests(world);
  // A PC's attack is a roll against the foe's Difficulty: picking the foe fills it in, hidden while foes show players no numbers.
  const foes = rollFoes(world);
  const foe = foes.find((f) => f.id === against);
  const pickFoe = (id: string) => {
    setAgainst(id);
    const f = foes.find((x) => x.id === id);
    if (f === undefined) return;
    setDifficulty(String(f.difficulty));
    setHidden(foeRevealOf(world) === 'none');
  };
  return (
    <section class="panel" aria-labelledby="dh-req-title" data-testid="request-roll">
      <h2 id="dh-req-title">Ask for a roll</h2>
      {pcs.length === 0 ? <p class="muted small">Add a PC to ask for rolls.</p> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!target) return;
          const command: { type: string; [k: string]: Json } = { type: 'daggerheart.requestRoll', characterId: target.id, difficulty: Number(difficulty), hidden, advantage: Number(advantage) };
          if (trait) command['trait'] = trait;
          if (foe !== undefined && againstWords(foe) !== '') command['label'] = againstWords(foe);
          // Other modifiers reach the roll whether or not an Experience is named (a GM review finding: the one box was dropped without one).
          if (Number(modifier) !== 0) command['bonus'] = Number(modifier);
          if (experience.trim()) {
            command['experience'] = experience.trim();
            command['experienceBonus'] = Number(bonus);
          }
          void send(command);
        }}
      >
        <div class="row">
          <Field id="dh-req-who" label="PC">
            <select id="dh-req-who" value={target?.id ?? ''} onChange={(e) => setWho(e.currentTarget.value)}>
              {pcs.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id="dh-req-trait" label="Trait">
            <select id="dh-req-trait" value={trait} onChange={(e) => setTrait(e.currentTarget.value)}>
              <option value="">none</option>
              {TRAIT_NAMES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          {foes.length > 0 ? (
            <Field id="dh-req-against" label="Against">
              <select id="dh-req-against" value={foe?.id ?? ''} onChange={(e) => pickFoe(e.currentTarget.value)}>
                <option value="">no adversary</option>
                {foes.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name} (Difficulty {f.difficulty})
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <Field id="dh-req-diff" label="Difficulty">
            <input id="dh-req-diff" type="number" min={1} max={60} value={difficulty} onInput={(e) => setDifficulty(e.currentTarget.value)} style={{ width: '5em' }} />
          </Field>
          <label class="small">
            <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.currentTarget.checked)} /> Hide the difficulty
          </label>
        </div>
        <div class="row">
          <Field id="dh-req-adv" label="Advantage">
            <select id="dh-req-adv" value={advantage} onChange={(e) => setAdvantage(e.currentTarget.value)}>
              <option value="-1">disadvantage</option>
              <option value="0">none</option>
              <option value="1">advantage</option>
            </select>
          </Field>
          <Field id="dh-req-mod" label="Modifier">
            <input id="dh-req-mod" type="number" min={-30} max={30} value={modifier} onInput={(e) => setModifier(e.currentTarget.value)} style={{ width: '4em' }} />
          </Field>
          <Field id="dh-req-exp" label="Experience">
            <input id="dh-req-exp" maxLength={80} placeholder="optional" value={experience} onInput={(e) => setExperience(e.currentTarget.value)} style={{ width: '9em' }} />
          </Field>
          <Field id="dh-req-bonus" label="Experience bonus">
            <input id="dh-req-bonus" type="number" min={1} max={10} value={bonus} onInput={(e) => setBonus(e.currentTarget.value)} style={{ width: '4em' }} />
          </Field>
          <button class="primary" type="submit" disabled={!target}>
            Ask {target?.name ?? ''}
          </button>
        </div>
      </form>
      {open.length > 0 ? (
        <ul class="list" aria-label="Open requests">
          {open.map((r) => (
            <li key={r.id} class="row small" data-testid="open-request">
              <span>
                {world.characters[r.characterId]?.name}: {requestWords(r)}
                {r.hidden ? ` (hidden ${r.difficulty})` : ''}
              </span>
              {r.awaiting === true ? <DifficultyForm request={r} name={world.characters[r.characterId]?.name ?? ''} send={send} /> : null}
              <button class="small" onClick={() => void send({ type: 'daggerheart.cancelRequest', requestId: r.id })}>
                Withdraw
              </button>
              {ask && r.awaiting !== true ? <SuccessOdds requestId={r.id} helpers={helpersOf(world, r.characterId).join(',')} ask={ask} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A roll the player asked to make: the GM sets its difficulty (shown or hidden) and may offer an Experience (ADR 50). */
function DifficultyForm({ request, name, send }: { request: RollRequest; name: string; send: Send }) {
  const [difficulty, setDifficulty] = useState('12');
  const [hidden, setHidden] = useState(false);
  const [experience, setExperience] = useState('');
  const id = `dh-set-${request.id}`;
  return (
    <form
      class="row small"
      aria-label={`Difficulty for ${name}'s roll`}
      data-testid="set-difficulty"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(difficulty);
        if (!Number.isInteger(n) || n < 1 || n > 60) return;
        void send({ type: 'daggerheart.setDifficulty', requestId: request.id, difficulty: n, hidden, ...(experience.trim() ? { experience: experience.trim() } : {}) });
      }}
    >
      <Field id={`${id}-d`} label="Difficulty">
        <input id={`${id}-d`} type="number" inputMode="numeric" min={1} max={60} value={difficulty} onInput={(e) => setDifficulty(e.currentTarget.value)} style={{ width: '4.5em' }} />
      </Field>
      <label>
        <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.currentTarget.checked)} /> Hide it
      </label>
      <Field id={`${id}-x`} label="Experience">
        <input id={`${id}-x`} maxLength={80} placeholder="optional" value={experience} onInput={(e) => setExperience(e.currentTarget.value)} style={{ width: '8em' }} />
      </Field>
      <button class="small primary" type="submit">
        Set the difficulty
      </button>
    </form>
  );
}

function PartyPanel({ world, send }: { world: World; send: Send }) {
  const pcs = pcsOf(world);
  return (
    <section class="panel" aria-labelledby="dh-party-title" data-testid="party-trackers">
      <h2 id="dh-party-title">Party</h2>
      {pcs.length === 0 ? <p class="muted small">No PCs yet.</p> : null}
      {pcs.map((c) => {
        const t = tracksOfCharacter(world, c);
        return (
          <div key={c.id}>
            <strong>{c.name}</strong>
            <CharacterTracks t={t} send={send} markable={['hp', 'stress', 'armor']} />
            {/* Hope given outside a roll (a GM's reward); the engine caps it at the table's most. */}
            <button class="small" disabled={t.hope >= t.hopeMax} onClick={() => void send({ type: 'daggerheart.gainHope', characterId: c.id, amount: 1 })}>
              Give Hope to {c.name}
            </button>
            {t.thresholds ? null : <ThresholdsForm id={c.id} name={c.name} send={send} />}
            <DamageBox t={t} send={send} />
          </div>
        );
      })}
    </section>
  );
}

/**
 * A PC made without its damage thresholds cannot take damage (000 judges damage
 * against Major and Severe), so the Damage button waits greyed: ask for them
 * here, where the GM is looking, rather than in the sheet editor further down.
 */
function ThresholdsForm({ id, name, send }: { id: string; name: string; send: Send }) {
  const [major, setMajor] = useState('');
  const [severe, setSevere] = useState('');
  const [msg, setMsg] = useState<string | null>(null);
  return (
    <form
      class="row small"
      aria-label={`Damage thresholds for ${name}`}
      data-testid="set-thresholds"
      onSubmit={(e) => {
        e.preventDefault();
        const m = Number(major);
        const v = Number(severe);
        if (!Number.isInteger(m) || m < 1 || m > 200 || !Number.isInteger(v) || v < m || v > 400) return setMsg('Major is a whole number from 1 to 200; Severe at least Major, at most 400.');
        setMsg(null);
        void send({ type: 'character.sheet.set', characterId: id, sheet: { major: m, severe: v }, patch: true }).then((r) => !r.ok && setMsg(r.rejection.message));
      }}
    >
      <span class="muted">{name} needs damage thresholds before taking damage:</span>
      <Field id={`th-major-${id}`} label="Major">
        <input id={`th-major-${id}`} type="number" inputMode="numeric" min={1} max={200} value={major} onInput={(e) => setMajor(e.currentTarget.value)} style={{ width: '4.5em' }} />
      </Field>
      <Field id={`th-severe-${id}`} label="Severe">
        <input id={`th-severe-${id}`} type="number" inputMode="numeric" min={1} max={400} value={severe} onInput={(e) => setSevere(e.currentTarget.value)} style={{ width: '4.5em' }} />
      </Field>
      <button class="small" type="submit" aria-label={`Set thresholds for ${name}`}>
        Set
      </button>
      {msg ? (
        <span class="error" role="alert">
          {msg}
        </span>
      ) : null}
    </form>
  );
}

/**
 * The adversaries at the table. They come in one way, from the bestiary's stat
 * blocks with a count (a second group goes on counting); each card shows its
 * trackers, damage box and moves with the countdowns they started.
 */
function AdversaryPanel({ world, send }: { world: World; send: Send }) {
  const foes = adversariesOf(world);
  return (
    <section class="panel" aria-labelledby="dh-adv-title" data-testid="adversaries">
      <h2 id="dh-adv-title">Adversaries</h2>
      <p class="small muted" data-testid="adversaries-how">
        {foes.length === 0 ? 'None yet. ' : ''}Add adversaries from a stat block in the Bestiary below (“Add … as adversaries”, with how many); their moves and countdowns come with them.
      </p>
      {foes.map((c) => {
        const t = tracksOfCharacter(world, c);
        const moves = adversaryMoves(world, c);
        return (
          <div key={c.id} data-testid="adversary">
            <strong>{c.name}</strong> {isDefeatedAdversary(world, c) ? <span class="badge bad">down</span> : null}{' '}
            {isHiddenAdversary(world, c) ? (
              <span class="badge" title="Players cannot see it until you reveal it" data-testid="adversary-hidden">
                hidden from players
              </span>
            ) : null}{' '}
            <span class="small muted">Difficulty {String(c.stats['difficulty'] ?? '?')} · Attack {String(c.stats['attack'] ?? 0)} · {String(c.stats['damage'] ?? '')}</span>
            <CharacterTracks t={{ ...t, hopeMax: 0 }} send={send} markable={['hp', 'stress']} />
            <DamageBox t={t} send={send} />
            {moves.length > 0 ? (
              <ul class="list small" aria-label={`${c.name}'s moves`} data-testid="adversary-moves">
                {moves.map((m) => (
                  <li key={m.name}>
                    <strong>{m.name}</strong>
                    {m.text !== '' ? ` — ${m.text}` : ''}
                    {m.countdown !== null ? <span class="muted"> · countdown {m.countdown.value} of {m.countdown.start}</span> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}

function RestPanel({ world, send }: { world: World; send: Send }) {
  const pcs = pcsOf(world);
  const [moves, setMoves] = useState<{ [id: string]: [string, string] }>({});
  const pick = (id: string, i: 0 | 1, v: string) => setMoves({ ...moves, [id]: i === 0 ? [v, moves[id]?.[1] ?? ''] : [moves[id]?.[0] ?? '', v] });
  const rest = (kind: 'short' | 'long') => {
    const list: Json[] = [];
    for (const c of pcs) for (const m of moves[c.id] ?? []) if (m) list.push({ characterId: c.id, move: m });
    void send({ type: 'daggerheart.rest', rest: kind, moves: list }).then((r) => r.ok && setMoves({}));
  };
  return (
    <section class="panel" aria-labelledby="dh-rest-title" data-testid="rest">
      <h2 id="dh-rest-title">Rest</h2>
      {pcs.map((c) => (
        <div key={c.id} class="row small">
          <span class="dh-track-name">{c.name}</span>
          {([0, 1] as const).map((i) => (
            <select key={i} class="small" aria-label={`${c.name} downtime move ${i + 1}`} value={moves[c.id]?.[i] ?? ''} onChange={(e) => pick(c.id, i, e.currentTarget.value)}>
              <option value="">—</option>
              {DOWNTIME.map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
          ))}
        </div>
      ))}
      <div class="row">
        <button class="small" onClick={() => rest('short')}>
          Short rest
        </button>
        <button class="small" onClick={() => rest('long')}>
          Long rest
        </button>
      </div>
    </section>
  );
}

/** The exact chance the requested roll succeeds, as the GM sees it (the server's `daggerheart.rollOdds`). */
function SuccessOdds({ requestId, helpers, ask }: { requestId: string; helpers: string; ask: Ask }) {
  const [odds, setOdds] = useState<RollOdds | null>(null);
  useEffect(() => {
    let live = true;
    void ask('daggerheart.rollOdds', { requestId }).then((a) => live && setOdds(a.ok ? (a.result as unknown as RollOdds) : null));
    return () => {
      live = false;
    };
  }, [requestId, helpers]);
  return odds ? (
    <span class="small muted" data-testid="request-odds">
      {oddsLines(odds)[0]}
    </span>
  ) : null;
}
