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

/** A complete `calibrate` command on a label file: every required option, smoothing 1, 30% held out, target 0.9. */
export function calibrateArgs(
  labels: string,
  options: { readonly dataset: string; readonly modelVersion: string; readonly prior: string },
): string[] {
  return [
    'calibrate',
    '--labels',
    labels,
    '--dataset',
    options.dataset,
    '--model-version',
    options.modelVersion,
    '--prior',
    options.prior,
    '--smoothing',
    '1',
    '--validation-fraction',
    '0.3',
    '--target-precision',
    '0.9',
  ];
}
