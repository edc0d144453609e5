// Types of scripts/postgres.mjs for the TypeScript tests and benches that start a throwaway PostgreSQL.
export interface StartedPostgres {
  /** postgres://tablekeeper@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  readonly url: string;
  readonly pid: number;
  readonly port: number;
  readonly dir: string;
  /** Ends the server by its pid and removes its directory. */
  stop(): Promise<void>;
}
export function postgresBin(): string | null;
export function ensurePostgres(): string;
export function startPostgres(options?: { fsync?: boolean; log?: boolean }): Promise<StartedPostgres>;
