// `await server.close()` at the top level of a script settles, and the code after it runs (a bench's cleanup):
// `npm run bench -- limits` exited 1 after printing all its figures because it did not (the store's wait for its
// checkpoint thread held nothing alive, so Node ended the script with exit 13).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from './helpers.js';

const script = fileURLToPath(new URL('./fixtures/close-then-say.ts', import.meta.url));

describe('closing the server from a script', () => {
  it('resolves, so the lines after `await server.close()` run and the process exits 0', { timeout: 60_000 }, () => {
    const t = tempDir();
    onTestFinished(t.cleanup);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, `${t.dir}/db.sqlite`, t.dir], { encoding: 'utf8', timeout: 50_000 });
    expect({ status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() }).toEqual({ status: 0, stdout: 'CLOSED', stderr: '' });
    expect(existsSync(t.dir)).toBe(false);
  });
});
