// The Episode as a state machine (004 "The Episode"): the Opening Credits,
// Freeplay and its loose spotlight order, pausing and resuming an Encounter,
// the Closing Credits and the between-Episode resets.
import { err, getEncounter, ok, own, type CommandHandler, type EncounterKit, type EngineEvent, type Json } from '@tablekeeper/engine';
import { ENCOUNTER_TRANSITIONS, EPISODE_TRANSITIONS, type EncounterPhase } from '../phases.js';
import { K, setting } from '../settings.js';
import { getKlepto } from '../state.js';
import { byCharacter, describePhase, FORBIDDEN, inEncounterPhase, inPhase, nameOf, needText, phaseChange, text } from '../context.js';
import type { KleptoEvent } from '../events.js';

export function episodeCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    // ------------------------------------------------------------ the Episode
    'kleptonomicon.startEpisode': {
      label: 'start an Episode',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.opening);
        if (bad !== null) return { ok: false, error: { ...bad, message: 'an Episode is already running; finish its Closing Credits first' } };
        return ok([{ type: 'kleptonomicon.episodeStarted', episode: st.episode + 1 } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.introduce': {
      label: 'introduce a character',
      authorize: byCharacter(),
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'opening');
        if (bad !== null) return { ok: false, error: bad };
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const clip = text(c, 'clip', false);
        if (!clip.ok) return clip;
        return ok([{ type: 'kleptonomicon.introduced', characterId: ch, clip: clip.value } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.coldOpen': {
      label: 'add a cold open',
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'opening');
        if (bad !== null) return { ok: false, error: bad };
        const t = needText(c, 'text');
        return t.ok ? ok([{ type: 'kleptonomicon.coldOpened', text: t.value } satisfies KleptoEvent]) : t;
      },
    },
    'kleptonomicon.freeplay': {
      label: 'move to Freeplay',
      decide(world) {
        const st = getKlepto(world);
        const fromReward = st.phase === 'encounter' && st.encounterPhase === 'reward';
        if (st.phase !== 'opening' && !fromReward) return err('WRONG_PHASE', `Freeplay follows the Opening Credits or an Encounter's Reward phase, not ${describePhase(st)}`);
        return ok([phaseChange(st, 'freeplay', null)]);
      },
    },
    'kleptonomicon.looseOrder': {
      label: 'set a loose turn order',
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'freeplay');
        if (bad !== null) return { ok: false, error: bad };
        const order = c['order'];
        if (order === null) return ok([{ type: 'kleptonomicon.looseOrderSet', order: null } satisfies KleptoEvent]);
        if (!Array.isArray(order) || order.length === 0 || order.length > 50) return err('INVALID_VALUE', 'order must be a list of 1-50 character ids, or null to drop it', 'order');
        const ids: string[] = [];
        for (let i = 0; i < order.length; i++) {
          const id = order[i];
          if (typeof id !== 'string' || own(world.characters, id) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(id)}`, `order[${i}]`);
          ids.push(id);
        }
        return ok([{ type: 'kleptonomicon.looseOrderSet', order: ids } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.passSpotlight': {
      label: 'pass the spotlight',
      decide(world) {
        const st = getKlepto(world);
        if (st.phase !== 'freeplay' || st.looseOrder === null) return err('NO_LOOSE_ORDER', 'Freeplay has no loose turn order to pass along');
        return ok([{ type: 'kleptonomicon.spotlightPassed', to: (st.spotlight + 1) % st.looseOrder.length } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.pause': {
      label: 'pause the Encounter',
      decide(world) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, ...ENCOUNTER_TRANSITIONS.pause.filter((p): p is EncounterPhase => p !== null));
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'encounter', 'pause')]);
      },
    },
    'kleptonomicon.resume': {
      label: 'resume the Encounter',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'pause');
        if (bad !== null) return { ok: false, error: bad };
        const events: EngineEvent[] = [phaseChange(st, 'encounter', 'main')];
        // Ending the Pause by spending a Beat: that Beat is gone from the spender's next turn.
        const by = c['endedWithBeatBy'];
        if (by !== undefined) {
          if (typeof by !== 'string' || own(getEncounter(world).combatants, by) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(by)}`, 'endedWithBeatBy');
          // On one's own turn the Beats left would reset at its end anyway: the Beat comes out of the next turn's two.
          const ownTurn = getEncounter(world).current === by;
          const spend = kit.spend(world, by, { kind: 'ability', cost: 1, ...(ownTurn ? { forNextTurn: true } : {}) });
          if (!spend.ok) return err('NO_BEATS', ownTurn ? `${nameOf(world, by)} already owes every Beat of their next turn` : `${nameOf(world, by)} has no Beat left to end the Pause with`, 'endedWithBeatBy');
          events.push({ type: 'kleptonomicon.pauseEndedWithBeat', combatant: by, ownTurn } satisfies KleptoEvent, spend.value);
        }
        return ok(events);
      },
    },
    'kleptonomicon.closingCredits': {
      label: 'roll the Closing Credits',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.closing);
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'closing', null)]);
      },
    },
    'kleptonomicon.resolutionScene': {
      label: 'play a resolution scene',
      authorize: (world, c, actor) => (c['characterId'] === undefined ? (actor.role === 'gm' ? null : FORBIDDEN) : byCharacter()(world, c, actor)),
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'closing');
        if (bad !== null) return { ok: false, error: bad };
        const t = needText(c, 'text');
        if (!t.ok) return t;
        const ch = c['characterId'];
        if (ch !== undefined && (typeof ch !== 'string' || own(world.characters, ch) === undefined)) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        return ok([{ type: 'kleptonomicon.resolutionPlayed', characterId: ch ?? null, text: t.value } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.endEpisode': {
      label: 'end the Episode',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'closing');
        if (bad !== null) return { ok: false, error: bad };
        const h = c['halve'] ?? setting(world, K.halveResets);
        if (typeof h !== 'boolean') return err('INVALID_VALUE', 'halve must be true or false', 'halve');
        // Resets restore each tracked resource; halved, only half of what was lost (rounded down) comes back.
        const resets: { characterId: string; key: string; from: number; to: number }[] = [];
        for (const [ch, res] of Object.entries(st.resources)) {
          for (const [key, r] of Object.entries(res)) {
            const to = h ? r.value + Math.floor((r.max - r.value) / 2) : r.max;
            if (to !== r.value) resets.push({ characterId: ch, key, from: r.value, to });
          }
        }
        return ok([{ type: 'kleptonomicon.episodeEnded', episode: st.episode, halve: h, resets, expired: st.episodic as unknown as Json } satisfies KleptoEvent]);
      },
    },

  };
}
