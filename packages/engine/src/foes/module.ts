// The GM's choice of what players read of foes (ADR 33, issue 15):
// `foes.reveal { reveal: none | defences | all }`. Demanding tables show a
// foe's AC or defences after a few hits; the default keeps every number.
import { z } from 'zod';
import { catalogOf, defineCommand } from '../core/catalog.js';
import { appendLog } from '../core/log.js';
import { reducersOf, type Evolve } from '../core/events.js';
import { err, ErrorCode, ok } from '../core/result.js';
import { AUDIENCE_ALL } from '../core/visibility.js';
import type { Json, Module, World } from '../core/types.js';
import { FOE_REVEALS, FOES_ID, foeRevealOf, type FoeReveal } from './model.js';

const WORDS: Record<FoeReveal, string> = {
  none: "The GM keeps foes' numbers secret.",
  defences: "The GM shows players foes' defences.",
  all: "The GM shows players every number of the foes, hit points included.",
};

const reveal = defineCommand('foes.reveal', {
  summary: "Choose what players read of foes' stats: none (the default), their defences, or all of them",
  who: 'gm',
  label: "change what players see of foes' stats",
  input: z.strictObject({ reveal: z.enum(FOE_REVEALS as readonly [FoeReveal, ...FoeReveal[]]).meta({ description: 'none, defences (AC, PD, MD, Evasion, Difficulty) or all' }) }),
  decide(world, p) {
    const from = foeRevealOf(world);
    if (from === p.reveal) return err(ErrorCode.INVALID_VALUE, `reveal: the table already shows ${p.reveal === 'none' ? 'no foe numbers' : p.reveal === 'all' ? 'every foe number' : "foes' defences"}`, 'reveal');
    return ok([{ type: 'foes.revealed', reveal: p.reveal, from }]);
  },
});

const level = (v: Json | undefined): FoeReveal => (v === 'defences' || v === 'all' ? v : 'none');

/** `from`: what the table showed before. */
type FoesEvent = { readonly type: 'foes.revealed'; readonly reveal: FoeReveal; readonly from: FoeReveal };

const evolve: Evolve<FoesEvent> = {
  // A value no version wrote reads as showing nothing.
  'foes.revealed': (w: World, e) => {
    const r = level(e.reveal);
    return appendLog({ ...w, ext: { ...w.ext, [FOES_ID]: { reveal: r } } }, { audience: AUDIENCE_ALL, kind: 'foes.revealed', text: WORDS[r] });
  },
};

export const foesModule: Module = {
  id: FOES_ID,
  commands: { [reveal.declaration.type]: reveal.handler },
  catalog: catalogOf(reveal.declaration),
  reducers: reducersOf(evolve),
  // The choice is the table's rule, so everyone reads it (field by field: a key added later stays the GM's).
  project: (world, viewer) => (viewer.role !== 'gm' && Object.hasOwn(world.ext, FOES_ID) ? { ...world, ext: { ...world.ext, [FOES_ID]: { reveal: foeRevealOf(world) } } } : world),
  projectReads: { reads: [`ext.${FOES_ID}`], writes: [`ext.${FOES_ID}`] },
  idStatus: () => undefined,
};
