// Declarations of the Daggerheart commands (ADR 13): action rolls, Help an Ally, Hope and Fear.
import { catalogOf, characterId, declareCommand, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { MAX_ADVANTAGE_SOURCES, MAX_DIFFICULTY, MAX_MODIFIER, MAX_SPEND } from './module.js';

const LABEL = 80;
const amount = () => int(1, MAX_SPEND, 'how many (default 1)').optional();

export const daggerheartCatalog = catalogOf(
  declareCommand('daggerheart.actionRoll', {
    summary: 'Make an action roll with the Duality Dice against a difficulty',
    who: 'own-character',
    input: z.strictObject({
      characterId: characterId('the PC rolling (GM: optional)').optional(),
      modifier: int(-MAX_MODIFIER, MAX_MODIFIER, 'trait and other modifiers (default 0)').optional(),
      difficulty: int(1, MAX_DIFFICULTY, 'the difficulty'),
      advantage: int(-MAX_ADVANTAGE_SOURCES, MAX_ADVANTAGE_SOURCES, 'net advantage sources (negative: disadvantage)').optional(),
      reaction: z.boolean().meta({ description: 'a reaction roll (no Hope, Fear or countdown ticks by default)' }).optional(),
      label: text(LABEL).optional(),
    }),
  }),
  declareCommand('daggerheart.helpAlly', {
    summary: "Spend Hope to add an advantage die to an ally's next action roll",
    who: 'own-character',
    input: z.strictObject({ helperId: characterId('the PC helping'), targetId: characterId('the PC helped') }),
  }),
  declareCommand('daggerheart.spendHope', {
    summary: "Spend a PC's Hope",
    who: 'own-character',
    input: z.strictObject({ characterId: characterId(), amount: amount(), reason: text(LABEL).optional() }),
  }),
  declareCommand('daggerheart.gainHope', { summary: 'Give a PC Hope', who: 'gm', input: z.strictObject({ characterId: characterId(), amount: amount() }) }),
  declareCommand('daggerheart.spendFear', { summary: "Spend the GM's Fear", who: 'gm', input: z.strictObject({ amount: amount(), reason: text(LABEL).optional() }) }),
  declareCommand('daggerheart.gainFear', { summary: 'Gain Fear', who: 'gm', input: z.strictObject({ amount: amount() }) }),
);
