// Runtime values of @tablekeeper/protocol the browser needs. Importing the
// protocol package at runtime would ship zod (~40 kB gzip) to every phone, so
// these few are mirrored here; e2e/wire.test.ts checks they equal the
// protocol's. Types still come from the package (erased at build).
export const WS_PATH = '/ws';
export const WS_SUBPROTOCOL = 'tablekeeper.v1';
export const WS_TOKEN_PREFIX = 'tablekeeper.token.';

export function wsProtocols(token: string): string[] {
  return [WS_SUBPROTOCOL, WS_TOKEN_PREFIX + token];
}

export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  tooLarge: 1009,
  badProtocolVersion: 4400,
  unauthorized: 4401,
  revoked: 4403,
  authTimeout: 4408,
  rateLimited: 4429,
  tableClosed: 4410,
} as const;
