// The Episode as a state machine (004 "The Episode"): the Opening Credits,
// Freeplay and its loose spotlight order, pausing and resuming an Encounter,
// the Closing Credits and the between-Episode resets.
import { asJson } from '@tablekeeper/engine/events';
import { err, getEncounter, handlerOf, ok, own, type CommandHandler, type EncounterKit, type EngineEvent,} from '@tablekeeper/engine';
import { ENCOUNTER_TRANSITIONS, EPISODE_TRANSITIONS, type EncounterPhase } from '../phases.js';
import { K, setting } from '../settings.js';
import { getKlepto } from '../state.js';
import { blank, controlsCharacter, describePhase, FORBIDDEN, inEncounterPhase, inPhase, nameOf, phaseChange } from '../context.js';
import {
  closingCreditsDeclaration,
  coldOpenDeclaration,
  endEpisodeDeclaration,
  freeplayDeclaration,
  introduceDeclaration,
  looseOrderDeclaration,
  passSpotlightDeclaration,
  pauseDeclaration,
  resolutionSceneDeclaration,
  resumeDeclaration,
  startEpisodeDeclaration,
} from '../declarations.js';
import type { KleptoEvent } from '../events.js';

export function episodeCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    // ------------------------------------------------------------ the Episode
    'kleptonomicon.startEpisode': handlerOf(startEpisodeDeclaration, {
      label: 'start an Episode',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.opening);
        if (bad !== null) return { ok: false, error: { ...bad, message: 'an Episode is already running; finish its Closing Credits first' } };
        return ok([{ type: 'kleptonomicon.episodeStarted', episode: st.episode + 1 } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.introduce': handlerOf(introduceDeclaration, {
      label: 'introduce a character',
      authorize: (world, p, actor) => (controlsCharacter(world, actor, p.characterId) ? null : FORBIDDEN),
      decide(world, { characterId, clip }) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'opening');
        if (bad !== null) return { ok: false, error: bad };
        if (own(world.characters, characterId) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(characterId)}`, 'characterId');
        const empty = clip === undefined ? null : blank(clip, 'clip');
        if (empty !== null) return { ok: false, error: empty };
        return ok([{ type: 'kleptonomicon.introduced', characterId, clip: clip ?? null } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.coldOpen': handlerOf(coldOpenDeclaration, {
      label: 'add a cold open',
      decide(world, { text }) {
        const bad = inPhase(getKlepto(world), 'opening') ?? blank(text, 'text');
        if (bad !== null) return { ok: false, error: bad };
        return ok([{ type: 'kleptonomicon.coldOpened', text } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.freeplay': handlerOf(freeplayDeclaration, {
      label: 'move to Freeplay',
      decide(world) {
        const st = getKlepto(world);
        const fromReward = st.phase === 'encounter' && st.encounterPhase === 'reward';
        if (st.phase !== 'opening' && !fromReward) return err('WRONG_PHASE', `Freeplay follows the Opening Credits or an Encounter's Reward phase, not ${describePhase(st)}`);
        return ok([phaseChange(st, 'freeplay', null)]);
      },
    }),
    'kleptonomicon.looseOrder': handlerOf(looseOrderDeclaration, {
      label: 'set a loose turn order',
      decide(world, { order }) {
        const bad = inPhase(getKlepto(world), 'freeplay');
        if (bad !== null) return { ok: false, error: bad };
        if (order === null) return ok([{ type: 'kleptonomicon.looseOrderSet', order: null } satisfies KleptoEvent]);
        const missing = order.findIndex((id) => own(world.characters, id) === undefined);
        if (missing >= 0) return err('NOT_FOUND', `no character ${JSON.stringify(order[missing])}`, `order[${missing}]`);
        return ok([{ type: 'kleptonomicon.looseOrderSet', order: [...order] } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.passSpotlight': handlerOf(passSpotlightDeclaration, {
      label: 'pass the spotlight',
      decide(world) {
        const st = getKlepto(world);
        if (st.phase !== 'freeplay' || st.looseOrder === null) return err('NO_LOOSE_ORDER', 'Freeplay has no loose turn order to pass along');
        return ok([{ type: 'kleptonomicon.spotlightPassed', to: (st.spotlight + 1) % st.looseOrder.length } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.pause': handlerOf(pauseDeclaration, {
      label: 'pause the Encounter',
      decide(world) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, ...ENCOUNTER_TRANSITIONS.pause.filter((p): p is EncounterPhase => p !== null));
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'encounter', 'pause')]);
      },
    }),
    'kleptonomicon.resume': handlerOf(resumeDeclaration, {
      label: 'resume the Encounter',
      decide(world, { endedWithBeatBy: by }) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'pause');
        if (bad !== null) return { ok: false, error: bad };
        const events: EngineEvent[] = [phaseChange(st, 'encounter', 'main')];
        // Ending the Pause by spending a Beat: that Beat is gone from the spender's next turn.
        if (by !== undefined) {
          if (own(getEncounter(world).combatants, by) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(by)}`, 'endedWithBeatBy');
          // On one's own turn the Beats left would reset at its end anyway: the Beat comes out of the next turn's two.
          const ownTurn = getEncounter(world).current === by;
          const spend = kit.spend(world, by, { kind: 'ability', cost: 1, ...(ownTurn ? { forNextTurn: true } : {}) });
          if (!spend.ok) return err('NO_BEATS', ownTurn ? `${nameOf(world, by)} already owes every Beat of their next turn` : `${nameOf(world, by)} has no Beat left to end the Pause with`, 'endedWithBeatBy');
          events.push({ type: 'kleptonomicon.pauseEndedWithBeat', combatant: by, ownTurn } satisfies KleptoEvent, spend.value);
        }
        return ok(events);
      },
    }),
    'kleptonomicon.closingCredits': handlerOf(closingCreditsDeclaration, {
      label: 'roll the Closing Credits',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.closing);
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'closing', null)]);
      },
    }),
    'kleptonomicon.resolutionScene': handlerOf(resolutionSceneDeclaration, {
      label: 'play a resolution scene',
      // A scene about nobody in particular is the GM's; a player's is about their own character.
      authorize: (world, p, actor) => ((p.characterId === undefined ? actor.role === 'gm' : controlsCharacter(world, actor, p.characterId)) ? null : FORBIDDEN),
      decide(world, { text, characterId }) {
        const bad = inPhase(getKlepto(world), 'closing') ?? blank(text, 'text');
        if (bad !== null) return { ok: false, error: bad };
        if (characterId !== undefined && own(world.characters, characterId) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(characterId)}`, 'characterId');
        return ok([{ type: 'kleptonomicon.resolutionPlayed', characterId: characterId ?? null, text } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.endEpisode': handlerOf(endEpisodeDeclaration, {
      label: 'end the Episode',
      decide(world, { halve }) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'closing');
        if (bad !== null) return { ok: false, error: bad };
        const h = halve ?? setting(world, K.halveResets);
        if (typeof h !== 'boolean') return err('INVALID_VALUE', 'halve must be true or false', 'halve');
        // Resets restore each tracked resource; halved, only half of what was lost (rounded down) comes back.
        const resets: { characterId: string; key: string; from: number; to: number }[] = [];
        for (const [ch, res] of Object.entries(st.resources)) {
          for (const [key, r] of Object.entries(res)) {
            const to = h ? r.value + Math.floor((r.max - r.value) / 2) : r.max;
            if (to !== r.value) resets.push({ characterId: ch, key, from: r.value, to });
          }
        }
        return ok([{ type: 'kleptonomicon.episodeEnded', episode: st.episode, halve: h, resets, expired: asJson(st.episodic) } satisfies KleptoEvent]);
      },
    }),

  };
}
