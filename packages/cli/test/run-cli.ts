// Runs the CLI's main() in this process with captured output, as the shell would run `tablekeeper …`.
import { main, type CliIo } from '../src/index.js';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (s) => void (out += s), err: (s) => void (err += s) };
  const code = await main(argv, io);
  return { code, out, err };
}
