// Runs the refsem CLI in-process and captures its output and exit code.
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    isTTY: false,
  });
  return { code, stdout, stderr };
}
