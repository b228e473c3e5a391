/**
 * True when the text contains a control character (Unicode general category Cc: the C0 controls
 * U+0000–U+001F, DEL U+007F and the C1 controls U+0080–U+009F). With allowLineBreaks, TAB, LF and CR are
 * accepted (the XHTML narrative). A code-unit loop rather than /\p{Cc}/u: it runs on every string of every
 * ingested resource and on 40,000 label cells per dataset.
 */
export function hasControlCharacter(text: string, allowLineBreaks = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (allowLineBreaks && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
