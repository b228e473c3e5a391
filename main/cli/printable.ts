/**
 * Text made safe for a terminal: what the engine stores or reports is printed, never obeyed. Control
 * characters (C0, DEL, C1: an ANSI escape among them) and the invisible format characters that reorder or
 * hide text (bidirectional overrides and isolates, zero-width characters, the byte order mark, line and
 * paragraph separators) are shown as escapes: `\x1b`, `\u202e`. Tab, line feed and carriage return are shown
 * as `\t`, `\n` and `\r`, so one cell stays one cell of a table or a TSV row.
 */

/** Invisible format characters that can reorder or hide what a terminal shows. */
function isInvisibleFormat(code: number): boolean {
  return (
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function escape(code: number): string {
  if (code === 0x09) return '\\t';
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function replaceUnsafe(text: string, unsafe: (code: number) => boolean, replacement: (code: number) => string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!unsafe(code)) continue;
    out += text.slice(from, i) + replacement(code);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

export function printable(text: string): string {
  return replaceUnsafe(text, (code) => isControl(code) || isInvisibleFormat(code), escape);
}

/**
 * JSON text with DEL, the C1 controls and the invisible format characters as \u escapes (JSON.stringify
 * already escapes C0). Still valid JSON for the same value: such characters occur only inside strings.
 */
export function printableJson(json: string): string {
  return replaceUnsafe(
    json,
    (code) => (code >= 0x7f && code <= 0x9f) || isInvisibleFormat(code),
    (code) => `\\u${code.toString(16).padStart(4, '0')}`,
  );
}
