/**
 * Number options of the CLI: a plain decimal or e-notation number, or a usage error naming the option.
 */
import type { CliContext } from './context.ts';
import { usage } from './context.ts';

/** What a number option accepts: 0.5, .5, 5, -1, 1e-3. */
export const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function numberOption(cli: CliContext, name: string): number {
  const raw = cli.required(name);
  if (!NUMBER.test(raw)) throw usage(`--${name} must be a number`);
  return Number(raw);
}

export function optionalNumber(cli: CliContext, name: string): number | undefined {
  const raw = cli.string(name);
  if (raw === undefined) return undefined;
  if (!NUMBER.test(raw)) throw usage(`--${name} must be a number`);
  return Number(raw);
}
