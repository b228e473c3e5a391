import { main } from '../../main/cli/main.ts';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    args,
    (t) => (stdout += t),
    (t) => (stderr += t),
  );
  return { code, stdout, stderr };
}
