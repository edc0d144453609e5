// Types of scripts/ensure-packages.mjs for its TypeScript test.
export interface Need {
  /** The Debian package. */
  readonly apt: string;
  /** Which tests need it. */
  readonly use: string;
  found(): boolean;
  /** The variable that points at it elsewhere instead. */
  readonly instead: string;
}
export interface MachineFacts {
  readonly root: boolean;
  /** sudo runs without asking a password. */
  readonly sudo: boolean;
  /** apt-get is on PATH. */
  readonly apt: boolean;
}
export type InstallPlan = { readonly kind: 'nothing' } | { readonly kind: 'run'; readonly commands: readonly (readonly string[])[] } | { readonly kind: 'by-hand'; readonly message: string };
export const NEEDS: readonly Need[];
export function postgresBin(): string | null;
export function missingPackages(needs?: readonly Need[]): Need[];
export function installPlan(packages: readonly string[], facts: MachineFacts): InstallPlan;
export function machineFacts(): MachineFacts;
export function ensurePackages(needs?: readonly Need[], options?: { log?: (line: string) => void; facts?: MachineFacts }): string[];
