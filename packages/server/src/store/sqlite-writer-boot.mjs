// Entry of the SQLite writer thread (ADR 107). A bench bundle ships the thread
// bundled beside this file; from the sources, TypeScript needs tsx's loader,
// which a worker does not inherit from `node --import tsx`, so register it here.
import { existsSync } from 'node:fs';

const bundled = new URL('./sqlite-writer.bundle.mjs', import.meta.url);
if (existsSync(bundled)) {
  await import(bundled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./sqlite-writer.ts');
}
