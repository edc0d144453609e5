// The requests module's event union (STYLE 2): a request is stored whole when made;
// every answer names it and the seat that made it (since the first request events).
import type { PlayerRequest } from './model.js';

type Answer = { readonly id: string; readonly seatId: string };

export type RequestEvent =
  | { readonly type: 'request.made'; readonly request: PlayerRequest }
  /** `difficulty`: the GM's, on an action request only. */
  | ({ readonly type: 'request.approved'; readonly difficulty?: number } & Answer)
  | ({ readonly type: 'request.declined'; readonly reason?: string } & Answer)
  | ({ readonly type: 'request.withdrawn' } & Answer)
  | ({ readonly type: 'request.expired'; readonly reason: string } & Answer);
