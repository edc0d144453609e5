// Entry of the import worker thread: TypeScript sources need tsx's loader,
// which a worker does not inherit from `node --import tsx`, so register it here.
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
