/**
 * The command line's own mistakes in plain words. node:util parseArgs explains them in several lines written for
 * programmers ("argument is ambiguous. Did you forget to specify the option argument…"); a person needs the option
 * and what to type instead.
 */
import { printable } from './printable.ts';

function optionIn(message: string): string | undefined {
  return /'(-{1,2}[^'\s]+)/.exec(message)?.[1];
}

/** One line saying what is wrong with the arguments (never more than the option's name from what was typed). */
export function argumentProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const code = (error as { code?: unknown } | null)?.code;
  const option = optionIn(message);
  if (option !== undefined) {
    const name = printable(option);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${name}`;
    if (message.includes('is ambiguous'))
      return `${name} takes a value, and the word after it starts with a dash: if that is the value, write ${name}=VALUE (for example ${name}=-1)`;
    if (message.includes('argument missing')) return `${name} needs a value`;
    if (message.includes('does not take an argument')) return `${name} takes no value`;
  }
  return printable(message.split('\n')[0] || 'invalid arguments');
}
