import { createHash } from 'node:crypto';
import type { LabelPair } from './labels.ts';

/**
 * SHA-256 digest (FIPS 180-4) of the ordered pair references and labels, as lowercase hex
 * (spec "Evaluation report": "SHA-256 digest of the ordered pair references and labels").
 *
 * Serialisation, so that another tool can reproduce the digest: for each pair, in the order
 * given, the line
 *
 *     ${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}\t${isMatch ? '1' : '0'}\n
 *
 * (TAB-separated, LF-terminated, no header), all lines concatenated and encoded as UTF-8; the
 * digest is over that byte string. It is the label TSV the portal accepts with outcomes written
 * `1`/`0`, so for a file in that form `sha256sum labels.tsv` gives the same value. Order matters:
 * reordering the pairs, or swapping the sides of one pair, changes the digest.
 *
 * The form is unambiguous only for validated pairs (no field contains a TAB or LF; see
 * `labelRuleIssues`).
 */
export function datasetDigest(pairs: readonly LabelPair[]): string {
  const hash = createHash('sha256');
  for (const { left, right, isMatch } of pairs) {
    hash.update(
      `${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}\t${isMatch ? '1' : '0'}\n`,
      'utf8',
    );
  }
  return hash.digest('hex');
}
