/**
 * SQLite's statement texts as PostgreSQL takes them, for the statements whose meaning is the same in both: `?`
 * placeholders become `$1, $2, …`; `INDEXED BY` (a planner hint SQLite needs and PostgreSQL has no use for) goes;
 * `INSERT OR IGNORE` becomes `INSERT … ON CONFLICT DO NOTHING`; a mixed-case column alias is quoted, since
 * PostgreSQL folds unquoted names to lower case. Quoted strings and identifiers are left as they are. Anything else
 * that differs is written in both dialects beside each other (store.ts `dialects`).
 */

/** Splits SQL into code and quoted parts ('…', "…"), so rewrites touch only the code. */
function parts(sql: string): { code: boolean; text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  let i = 0;
  let start = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      if (i > start) out.push({ code: true, text: sql.slice(start, i) });
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j += 1;
      }
      out.push({ code: false, text: sql.slice(i, j + 1) });
      i = j + 1;
      start = i;
    } else i += 1;
  }
  if (start < sql.length) out.push({ code: true, text: sql.slice(start) });
  return out;
}

export function toPostgres(sql: string): string {
  let n = 0;
  const found = { ignore: false };
  const rewritten = parts(sql)
    .map(({ code, text }) => {
      if (!code) return text;
      let t = text.replace(/\bINDEXED BY\s+[A-Za-z_][A-Za-z0-9_]*/g, '');
      t = t.replace(/\bINSERT OR IGNORE INTO\b/g, () => {
        found.ignore = true;
        return 'INSERT INTO';
      });
      t = t.replace(/\bAS\s+([a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*)\b/g, 'AS "$1"');
      return t.replace(/\?/g, () => `$${String((n += 1))}`);
    })
    .join('');
  if (!found.ignore) return rewritten;
  if (/\bON CONFLICT\b/.test(rewritten) || /\bRETURNING\b/.test(rewritten))
    throw new Error('INSERT OR IGNORE with its own ON CONFLICT or RETURNING: write the PostgreSQL text beside it');
  return `${rewritten.trimEnd()} ON CONFLICT DO NOTHING`;
}
