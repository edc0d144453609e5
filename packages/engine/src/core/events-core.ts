// The core module's event union (STYLE 2, ADR 58): seats, characters, the clock
// and notes, as stored. A field older tables may lack is optional and its reader
// says what absence means. `dice.rolled`'s reducer lives with the roll (roll.ts).
import type { DiceRollResult } from '../dice/compile.js';
import type { NamedRollResult } from '../dice/named-notation.js';
import type { Audience, Character, ClockUnit, Visibility } from './types.js';

export type CoreEvent =
  | { readonly type: 'table.renamed'; readonly name: string }
  | { readonly type: 'seat.added'; readonly id: string; readonly name: string }
  | { readonly type: 'seat.renamed'; readonly id: string; readonly name: string; readonly from?: string }
  | { readonly type: 'seat.removed'; readonly id: string; readonly name: string }
  | { readonly type: 'character.added'; readonly id: string; readonly name: string; readonly kind?: string; readonly seatId?: string | null; readonly visibility: Visibility; readonly stats?: Character['stats'] }
  | {
      readonly type: 'character.updated';
      readonly id: string;
      /** Absent: the name is unchanged. */
      readonly name?: string;
      readonly visibility: Visibility;
      readonly wasVisibility?: Visibility;
      readonly seatId?: string | null;
      readonly wasSeatId?: string | null;
      /** Absent: the stats are unchanged; given, merged over them. */
      readonly stats?: Character['stats'];
    }
  | { readonly type: 'character.removed'; readonly id: string; readonly visibility?: Visibility; readonly seatId?: string | null }
  | { readonly type: 'clock.advanced'; readonly unit: ClockUnit; readonly count: number; readonly seconds: number }
  | { readonly type: 'log.noted'; readonly text: string; readonly audience: Audience; readonly by: string }
  | DiceRolled;

/** A table roll: plain notation (`roll`) or a system's roll by name (`named`), never both. `by` is a seat id or 'gm'. */
export type DiceRolled = { readonly type: 'dice.rolled'; readonly by: string; readonly audience: Audience; readonly label?: string } & (
  | { readonly roll: DiceRollResult; readonly named?: undefined }
  | { readonly named: NamedRollResult; readonly roll?: undefined }
);
