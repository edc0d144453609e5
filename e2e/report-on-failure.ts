// Setup file of the e2e project (vitest.config.ts): when a browser test fails,
// print what its open pages showed and sent (the rejection toast, page errors,
// the last socket frames), so a failure on CI explains itself.
import { afterEach } from 'vitest';
import { reportOpenPages } from './web.ts';

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  const report = await reportOpenPages();
  if (report !== '') console.error(`Open pages when "${ctx.task.name}" failed:\n${report}`);
});
