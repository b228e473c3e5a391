/**
 * A reason typed into a form (a job's, a review decision's) is kept on one line: the engine refuses control
 * characters in free text, and Enter in the field or a pasted tab makes one unseen. The forms say so as the reason
 * is typed, instead of letting the engine refuse it after the confirmation.
 */
import { hasControlCharacter } from '../engine/contract/control-characters.ts';

export const ONE_LINE_MESSAGE =
  'Write the reason on one line, without tabs: line breaks and other invisible characters cannot be kept';

/** ONE_LINE_MESSAGE when the reason holds a control character, else undefined. */
export function oneLineProblem(reason: string): string | undefined {
  return hasControlCharacter(reason) ? ONE_LINE_MESSAGE : undefined;
}
