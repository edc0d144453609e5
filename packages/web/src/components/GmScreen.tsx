// The GM screen: desktop-first panels around the encounter tracker.
import { useEffect, useState } from 'preact/hooks';
import type { Capability } from '../net/client.ts';
import { useTable } from '../lib/use-table.ts';
import { shortcutFor } from '../lib/shortcuts.ts';
import { encounterOf, namesOf } from '../lib/encounter.ts';
import { canGoBack, nextCommand } from '../lib/turns.ts';
import { EncounterPanel } from './Encounter.tsx';
import { CountdownsPanel } from './Countdowns.tsx';
import { DiceTray, DICE_INPUT_ID } from './DiceTray.tsx';
import { LogPanel } from './Log.tsx';
import { CountdownTools, NoteBox } from './TableKeeping.tsx';
import { ClockPanel } from './Clock.tsx';
import { InvitePanel } from './Invite.tsx';
import { GmSettings } from './GmSettings.tsx';
import { EpisodeBar, lazyPanel } from './LazyPanels.tsx';

// The GM's own panels, declared here, not in LazyPanels, so the phone's entry carries no byte of them:
// the rule forms for the party and each character (issue 20),
const RuleTools = lazyPanel(() => import('./RuleTools.tsx').then((m) => m.RuleTools), 'panel area-tools');
// OSR exploration, Daggerheart's board, the bestiary and templates, the table's own conditions (ADR 71),
// characters as files, and the players' requests.
const ExplorationPanel = lazyPanel(() => import('./Exploration.tsx').then((m) => m.ExplorationPanel), 'panel area-explore');
const DaggerheartGmBoard = lazyPanel(() => import('./daggerheart/GmBoard.tsx').then((m) => m.DaggerheartGmBoard), 'dh-board');
const BestiaryPanel = lazyPanel(() => import('./Bestiary.tsx').then((m) => m.BestiaryPanel), 'panel area-bestiary');
const TableConditions = lazyPanel(() => import('./TableConditions.tsx').then((m) => m.TableConditions), 'panel area-bestiary');
const PartyFiles = lazyPanel(() => import('./PartyFiles.tsx').then((m) => m.PartyFiles), 'panel area-party');
const RequestQueue = lazyPanel(() => import('./Requests.tsx').then((m) => m.RequestQueue), 'panel');
import { pendingRequests, requestsOf } from '@tablekeeper/engine/requests';
import { UndoBar } from './UndoBar.tsx';
import { FoeStatsSetting } from './FoeStats.tsx';
import { LinkProblem, useLinkProblem } from './LinkCheck.tsx';
import { useRemember } from './remember.ts';
import { HelpOverlay } from './Help.tsx';
import { RejectionToast, StatusDot } from './Chrome.tsx';
import type { Send } from './types.ts';
import { capabilitiesOf, hasPanel, rulesetTitleOf } from '@tablekeeper/rulesets/browser';

// Declared here, not in LazyPanels (which the phone loads): the GM's skill checks cost the phone nothing.
const SkillChecks = lazyPanel(() => import('./SkillChecks.tsx').then((m) => m.SkillChecks), 'skill-checks');

export function GmScreen({ capability }: { capability: Capability }) {
  const client = useTable(capability);
  const [help, setHelp] = useState(false);
  const view = client.view.value;
  const send: Send = (c) => client.send(c);
  const problem = useLinkProblem(client);
  useRemember(view?.world, 'gm');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const a = shortcutFor(e);
      if (!a) return;
      const v = client.view.value;
      if (a === 'close') {
        // Esc also leaves a box being typed in (review 9: after the damage box, the next "c" was typed into it).
        const el = document.activeElement;
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) el.blur();
        return setHelp(false);
      }
      if (a === 'help') return (e.preventDefault(), setHelp(true));
      if (a === 'roll') return (e.preventDefault(), document.getElementById(DICE_INPUT_ID)?.focus());
      if (!v) return;
      e.preventDefault();
      if (a === 'undo' && v.canUndo) void client.send({ type: 'history.undo' });
      else if (a === 'redo' && v.canRedo) void client.send({ type: 'history.redo' });
      else if (a === 'nextTurn') {
        const enc = encounterOf(v.world);
        if (enc?.active) void client.send(nextCommand(enc));
      } else if (a === 'prevTurn') {
        if (canGoBack(v.undoLabel)) void client.send({ type: 'history.undo' });
      } else if (a === 'damage') {
        const enc = encounterOf(v.world);
        if (enc?.current) document.querySelector<HTMLInputElement>(`input[data-damage-box="${CSS.escape(enc.current)}"]`)?.focus();
      } else if (a === 'condition') {
        // GM-FLOW's C: open the acting creature's tools at the condition picker (they render once open).
        const enc = encounterOf(v.world);
        const tools = enc?.current ? document.querySelector<HTMLDetailsElement>(`details[data-adjust="${CSS.escape(enc.current)}"]`) : null;
        if (tools && enc?.current) {
          tools.open = true;
          const id = `cond-${enc.current}-cond`;
          const focus = (tries: number) => {
            const el = document.getElementById(id);
            if (el) el.focus();
            else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
          };
          focus(30);
        }
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [client]);

  return (
    <>
      <header class="topbar">
        <span class="title">Tablekeeper</span>
        <span class="grow">
          {view ? (
            <>
              <strong data-testid="table-name">{view.world.name}</strong> <span class="badge" data-testid="ruleset-title">{rulesetTitleOf(view.world.rulesetId)}</span> <span class="badge">GM</span>
            </>
          ) : null}
        </span>
        <StatusDot client={client} bad={problem !== null} />
        {view ? <UndoBar view={view} send={send} /> : null}
        {view ? <FoeStatsSetting world={view.world} send={send} /> : null}
        <button onClick={() => setHelp(true)} aria-keyshortcuts="?" aria-haspopup="dialog">
          Shortcuts <kbd aria-hidden="true">?</kbd>
        </button>
      </header>
      {view && hasPanel(view.world.rulesetId, 'episode') ? <EpisodeBar world={view.world} gm send={send} ask={(name, args) => client.query(name, args)} /> : null}
      {view && hasPanel(view.world.rulesetId, 'daggerheart') ? <DaggerheartGmBoard world={view.world} history={view.history} send={send} ask={(name, args) => client.query(name, args)} /> : null}
      {view && capabilitiesOf(view.world.rulesetId).checksQuery !== undefined ? <SkillChecks world={view.world} send={send} ask={(name, args) => client.query(name, args)} query={capabilitiesOf(view.world.rulesetId).checksQuery!} /> : null}
      {view && pendingRequests(requestsOf(view.world)).length > 0 ? <RequestQueue world={view.world} send={send} ask={(name, args) => client.query(name, args)} /> : null}
      {view ? (
        <main class={hasPanel(view.world.rulesetId, 'exploration') ? 'gm-grid with-explore' : 'gm-grid'} id="main">
          <EncounterPanel world={view.world} gm send={send} ask={(name, args) => client.query(name, args)} undoLabel={view.undoLabel ?? null} undoWords={view.undoWords ?? null} />
          <CountdownsPanel world={view.world} history={view.history} gm send={send} Tools={CountdownTools} />
          <DiceTray class="area-dice" gm secretByDefault send={send} world={view.world} />
          <ClockPanel world={view.world} gm send={send} />
          {hasPanel(view.world.rulesetId, 'exploration') ? <ExplorationPanel world={view.world} send={send} ask={(name, args) => client.query(name, args)} /> : null}
          {hasPanel(view.world.rulesetId, 'tools') ? <RuleTools world={view.world} send={send} ask={(name, args) => client.query(name, args)} /> : null}
          <LogPanel world={view.world}>
            <NoteBox send={send} />
          </LogPanel>
          <InvitePanel world={view.world} gmToken={capability.token} tableId={client.tableId.value} send={send} />
          <BestiaryPanel world={view.world} send={send} />
          <TableConditions world={view.world} send={send} />
          <PartyFiles world={view.world} send={send} />
          <GmSettings world={view.world} send={send} ask={(name, args) => client.query(name, args)} />
        </main>
      ) : (
        <main class="player">
          {problem ? <LinkProblem message={problem} /> : <p role="status">{client.closeReason.value ?? 'Connecting to the table…'}</p>}
        </main>
      )}
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      <RejectionToast client={client} names={view ? namesOf(view.world) : {}} />
    </>
  );
}
