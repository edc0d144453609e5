// Ruleset-specific panels load only on the tables that use them (the
// Kleptonomicon episode bar, the OSR lights), so every other table's
// pages, phones included, do not download them. A tiny loader instead of
// preact/compat's lazy/Suspense, which would cost more than it saves. Panels
// only the GM screen shows are declared where it imports them: each line here
// is in the phone's first download.
import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';

export function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>, placeholderClass: string): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  return function LazyPanel(props: P) {
    const [Panel, setPanel] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Panel) return;
      let live = true;
      pending ??= load().then((c) => (loaded = c));
      pending.then(
        (c) => live && setPanel(() => c),
        () => {
          // Let the next mount try again (the server may have been restarting).
          pending = null;
          if (live) setFailed(true);
        },
      );
      return () => {
        live = false;
      };
    }, [Panel]);
    if (Panel) return <Panel {...props} />;
    return (
      <section class={placeholderClass} aria-busy="true">
        <p role="status" class="small muted">
          {failed ? 'This panel could not be loaded; reload the page to try again.' : 'Loading…'}
        </p>
      </section>
    );
  };
}

export const EpisodeBar = lazyPanel(() => import('./EpisodeBar.tsx').then((m) => m.EpisodeBar), 'episode-bar');
// The GM's clock buttons and each ruleset's rests (GM only; shown from the shared Clock panel).
export const ClockControls = lazyPanel(() => import('./ClockControls.tsx').then((m) => m.ClockControls), 'clock-controls');
export const PlayerLights = lazyPanel(() => import('./PlayerLights.tsx').then((m) => m.PlayerLights), 'panel');
// The turn's actions (ADR 23): only while an encounter runs on a table whose ruleset lists them.
export const ActionsPanel = lazyPanel(() => import('./Actions.tsx').then((m) => m.ActionsPanel), 'actions');
// A teams hit or fortify-or-fall waiting for an answer (ADR 42): shares the actions chunk.
export const ReactionPrompts = lazyPanel(() => import('./Actions.tsx').then((m) => m.ReactionPrompts), 'reaction-prompts');
// The GM's End encounter button, which warns of a hit still waiting (review 10): the GM screen only.
export const EndEncounter = lazyPanel(() => import('./EndEncounter.tsx').then((m) => m.EndEncounter), 'end-encounter');
// The GM's hand on the escalation die, under the die: in the same GM-only chunk (its loader costs the phone least so).
export const EscalationControls = lazyPanel(() => import('./EndEncounter.tsx').then((m) => m.EscalationControls), 'small');
// The GM's sheet editor: only on tables whose rules keep sheets of their own (36th Way, teams).
export const SheetEditor = lazyPanel(() => import('./SheetEditor.tsx').then((m) => m.SheetEditor), 'sheet-editor');
// Daggerheart's phone part (issue 21): only on Daggerheart tables.
export const DaggerheartPhone = lazyPanel(() => import('./daggerheart/Phone.tsx').then((m) => m.DaggerheartPhone), 'panel');
// The phone's dice tray: its notation parser and exact odds are most of the engine's
// dice code, so the phone loads it after the player view is on screen (the 30 KB budget).
export const DiceTrayLater = lazyPanel(() => import('./DiceTray.tsx').then((m) => m.DiceTray), 'panel');
// The GM's countdown form (the player view never shows it).
export const CreateCountdown = lazyPanel(() => import('./CountdownCreate.tsx').then((m) => m.CreateCountdown), 'small');
// The GM's encounter builder and "add a combatant" (a phone never builds encounters).
export const EncounterBuilder = lazyPanel(() => import('./EncounterBuilder.tsx').then((m) => m.EncounterBuilder), 'small');
export const SpotlightStart = lazyPanel(() => import('./EncounterBuilder.tsx').then((m) => m.SpotlightStart), 'small');
export const AddCombatant = lazyPanel(() => import('./EncounterBuilder.tsx').then((m) => m.AddCombatant), 'small');
// The GM's earlier / later buttons and row dragging (ADR 29), on tables whose turn order takes a manual order.
export const MoveButtons = lazyPanel(() => import('./Reorder.tsx').then((m) => m.MoveButtons), 'small');
// The GM's damage box and row tools on each tracker row (a phone never loads them).
export const GmRowParts = lazyPanel(() => import('./GmRow.tsx').then((m) => m.GmRowParts), 'small');
// A readied or extended action on a row, for the GM and the creature's player (issue 20).
export const HeldActions = lazyPanel(() => import('./HeldActions.tsx').then((m) => m.HeldActions), 'small');
// Players' requests (issue 20, ADR 29): the phone's form and the GM's queue, loaded where they show.
// The turn timer: the GM's controls, and on a phone only while a turn time is set.
export const TurnTimer = lazyPanel(() => import('./TurnTimer.tsx').then((m) => m.TurnTimer), 'small');
export const AskGm = lazyPanel(() => import('./Requests.tsx').then((m) => m.AskGm), 'panel');
// The OSR GM's morale prompt with its button and the fight-end summary (ADR 44): OSR GM screens only.
export const OsrMoralePrompt = lazyPanel(() => import('./OsrFight.tsx').then((m) => m.OsrMoralePrompt), 'small');
// An ended fight's summary, OSR's own or who fell and who stands (GM only).
export const FightSummary = lazyPanel(() => import('./FightSummary.tsx').then((m) => m.FightSummary), 'small');
// An ally's Stabilize on an OSR phone outside a fight (ADR 55).
export const OsrStabilizePhone = lazyPanel(() => import('./OsrStabilize.tsx').then((m) => m.OsrStabilizePhone), 'small');
// The phone's own-sheet form (issue 20): loaded when the player opens "My sheet".
export const PhoneSheet = lazyPanel(() => import('./PhoneSheet.tsx').then((m) => m.PhoneSheet), 'small');
