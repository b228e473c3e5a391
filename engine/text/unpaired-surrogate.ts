/**
 * True when the text holds an unpaired UTF-16 surrogate (U+D800-U+DFFF alone). JSON lets one in through an
 * escape (`"\uD800"`) and text payloads can carry one raw; it is no character, cannot be stored as UTF-8
 * without being replaced, and would compare and display as something else. Native isWellFormed (ES2024,
 * Node 20) is typed here because the project's lib is ES2023.
 */
export function hasUnpairedSurrogate(text: string): boolean {
  return !(text as string & { isWellFormed(): boolean }).isWellFormed();
}
