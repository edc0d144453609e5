// Entry of a query worker thread: TypeScript sources need tsx's loader, which
// a worker does not inherit from `node --import tsx`, so register it here.
import { register } from 'tsx/esm/api';

register();
await import('./query-worker.ts');
