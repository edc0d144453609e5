// One click that adds something and then works on it, as one change (ADR 73): a batch whose later command names
// the id an earlier one mints with a `$made` reference, which the engine resolves. GM-side only (phone bundle).
import type { Json } from '@tablekeeper/engine';
import type { ClientCommand } from '../net/codec.ts';

/** Stands for a value an earlier command of the same batch decided: `path` inside its first `event` of that type. */
export function made(command: number, event: string, path: string): Json {
  return { $made: { command, event, path } };
}

/** The id of the character that command `index` of the batch adds. */
export const madeCharacter = (index: number): Json => made(index, 'character.added', 'id');

/** A new character and what follows for it (its sheet), as one batch: `then` gets the reference that stands for the new id. */
export function addThen(add: ClientCommand, then: (id: Json) => ClientCommand): ClientCommand {
  return { type: 'history.batch', commands: [add, then(madeCharacter(0))] as unknown as Json };
}

/** A new character and its whole sheet in one step: one undo takes both back. */
export function addWithSheet(add: ClientCommand, sheet: { readonly [k: string]: Json }): ClientCommand {
  return addThen(add, (characterId) => ({ type: 'character.sheet.set', characterId, sheet }));
}
