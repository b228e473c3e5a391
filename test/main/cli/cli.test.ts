import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { TwinReasonSchema } from '../../../engine/contract/matching.ts';

const bin = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));

describe('mpi-console CLI on a synthetic sandbox', () => {
  it('sandbox init, identities, reviews, explain, compare and profile work as described', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    const init = await runCli([...db, 'sandbox', 'init', '--synthetic', '300', '--seed', '7']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/Loaded 300 synthetic people/);
    // The HMAC secret lives in a 0600 configuration file beside the database, not in it.
    expect(statSync(join(dir, 's.config.json')).mode & 0o777).toBe(0o600);

    const identities = await runCli([...db, 'identities']);
    expect(identities.code).toBe(0);
    const rows = identities.stdout.trim().split('\n');
    expect(rows[0]).toBe('sourceSystem\tlocalId\tenterpriseId');
    expect(rows.length - 1).toBeGreaterThan(300);
    // The review rate over every record loaded, in the words ingest and the console use, counts grouped.
    const rate = /Review cases: ([\d.]+) per 1,000 matched \(([\d,]+) cases?, ([\d,]+) matched\)\.\n/.exec(init.stdout);
    const [perThousand = NaN, cases = NaN, matched = NaN] = [rate?.[1], rate?.[2], rate?.[3]].map((text) =>
      Number((text ?? '').replace(/,/g, '')),
    );
    expect(matched).toBe(rows.length - 1);
    expect(perThousand).toBeCloseTo((1000 * cases) / matched, 1);
    const cells = rows.slice(1).map((r) => r.split('\t'));
    expect(cells.every((c) => c.length === 3)).toBe(true);

    const byIdentity = new Map<string, string[]>();
    for (const [system, local, eid] of cells)
      byIdentity.set(eid ?? '', [...(byIdentity.get(eid ?? '') ?? []), `${system ?? ''}/${local ?? ''}`]);
    const linked = [...byIdentity.values()].find((members) => members.length >= 2);
    expect(linked).toBeDefined();
    const [left, right] = linked ?? [];

    const explain = await runCli([...db, 'explain', '--left', left ?? '', '--right', right ?? '', '--json']);
    expect(explain.code, explain.stderr).toBe(0);
    const result = JSON.parse(explain.stdout) as {
      evidence: { field: string }[];
      score: number;
      left: { enterpriseId: string };
      right: { enterpriseId: string };
    };
    expect(result.left.enterpriseId).toBe(result.right.enterpriseId);
    expect(result.evidence.map((e) => e.field)).toContain('familyName');
    const table = await runCli([...db, 'explain', '--left', left ?? '', '--right', right ?? '']);
    expect(table.stdout).toMatch(/field\s+comparator\s+similarity\s+band/);

    const reviews = await runCli([...db, 'reviews']);
    expect(reviews.code).toBe(0);
    expect(reviews.stdout.split('\n')[0]).toMatch(/^caseId\tkind\tstatus\tleftEnterpriseId/);
    const caseId = reviews.stdout.split('\n')[1]?.split('\t')[0] ?? '';
    const shown = await runCli([...db, 'review', 'show', caseId]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`case     ${caseId}`);
    expect(shown.stdout).toMatch(/compare\s+mpi-console explain --left /);
    // Each identity with its version when the case was opened (and now, if it changed) and its records now.
    expect(shown.stdout).toMatch(/\nleft +[0-9a-f-]{36} v\d+( \(v\d+ now\))?: \d+ records?\n/);
    expect(shown.stdout).toMatch(/\nright +[0-9a-f-]{36} v\d+( \(v\d+ now\))?: \d+ records?\n/);
    // A case a rule held at Probable says which rule, and the score it held the pair from.
    const header = reviews.stdout.split('\n')[0]?.split('\t') ?? [];
    const held = reviews.stdout
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .find((cells) => (cells[header.indexOf('heldBy')] ?? '') !== '');
    if (held === undefined) throw new Error('no held case in the sandbox');
    // A case the twin rule held names its case (the sandbox holds twins); another rule's, or none, leaves it empty.
    const cell = (cells: string[], name: string): string => cells[header.indexOf(name)] ?? '';
    const caseRows = reviews.stdout
      .split('\n')
      .slice(1, -1)
      .map((line) => line.split('\t'));
    expect(caseRows.some((cells) => cell(cells, 'twinReason') !== '')).toBe(true);
    for (const cells of caseRows)
      if (cell(cells, 'heldBy') === 'PossibleTwin')
        expect(TwinReasonSchema.options).toContain(cell(cells, 'twinReason'));
      else expect(cell(cells, 'twinReason')).toBe('');
    // --held-by and --twin-case keep that rule's cases (and that case's), --held-by none those no rule held.
    const twinCase = caseRows.map((cells) => cell(cells, 'twinReason')).find((reason) => reason !== '') ?? '';
    const ofCase = await runCli([...db, 'reviews', '--held-by', 'PossibleTwin', '--twin-case', twinCase]);
    expect(ofCase.code, ofCase.stderr).toBe(0);
    const ofCaseRows = ofCase.stdout.replace(/\n$/, '').split('\n').slice(1);
    expect(ofCaseRows.length).toBeGreaterThan(0);
    expect(ofCaseRows.map((line) => line.split('\t').at(-1))).toEqual(ofCaseRows.map(() => twinCase));
    const unheld = await runCli([...db, 'reviews', '--held-by', 'none']);
    const unheldRows = unheld.stdout.replace(/\n$/, '').split('\n').slice(1);
    expect(unheldRows.length).toBeGreaterThan(0);
    expect(unheldRows.filter((line) => cell(line.split('\t'), 'heldBy') !== '')).toEqual([]);
    // reviews holds counts the waiting cases by hold, most first, each as --held-by (and --twin-case) lists them.
    const holds = await runCli([...db, 'reviews', 'holds']);
    expect(holds.code, holds.stderr).toBe(0);
    const holdRows = holds.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t'));
    expect(holdRows[0]).toEqual(['heldBy', 'twinReason', 'cases']);
    const counts = holdRows.slice(1).map(([, , cases]) => Number(cases));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(caseRows.length);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const [heldBy = '', twin = '', cases] of holdRows.slice(1)) {
      const listedOfHold = await runCli([
        ...db,
        'reviews',
        '--held-by',
        heldBy,
        ...(twin === '' ? [] : ['--twin-case', twin]),
      ]);
      const lines = listedOfHold.stdout.replace(/\n$/, '').split('\n').slice(1);
      // A twin-held case with no case recorded is counted apart, and listed among the rule's every case.
      if (heldBy !== 'PossibleTwin' || twin !== '') expect(String(lines.length)).toBe(cases);
    }
    const wrong = await runCli([...db, 'reviews', '--held-by', 'Twins']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--held-by is one of NoNameEvidence, PossibleTwin, .*, none/);
    // A decision, then the decided cases as labels: one case, one label, said in the singular.
    const current = (
      JSON.parse((await runCli([...db, 'reviews', '--json', '--limit', '1000'])).stdout) as {
        rows: { caseId: string; stale: boolean }[];
      }
    ).rows.find((row) => !row.stale);
    if (current === undefined) throw new Error('no current case in the sandbox');
    const decided = await runCli([
      ...db,
      'review',
      'decide',
      current.caseId,
      '--decision',
      'same-person',
      '--reason',
      'cli test',
    ]);
    expect(decided.code, decided.stderr).toBe(0);
    // Of the decided cases, reviews holds also says how many were one person and how many two.
    const decidedHolds = await runCli([...db, 'reviews', 'holds', '--status', 'resolved']);
    expect(decidedHolds.code, decidedHolds.stderr).toBe(0);
    const decidedRows = decidedHolds.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t'));
    expect(decidedRows[0]).toEqual(['heldBy', 'twinReason', 'cases', 'samePerson', 'differentPeople']);
    expect(decidedRows.slice(1).map((row) => row.slice(2))).toEqual([['1', '1', '0']]);
    const labelsOut = join(dir, 'review-labels.tsv');
    const labels = await runCli([...db, 'reviews', 'labels', '--out', labelsOut]);
    expect(labels.code, labels.stderr).toBe(0);
    expect(labels.stdout).toMatch(
      new RegExp(`^Wrote 1 label to ${labelsOut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\n`),
    );
    expect(readFileSync(labelsOut, 'utf8').trim().split('\n')).toHaveLength(2);
    expect((await runCli([...db, 'review', 'show', held[0] ?? ''])).stdout).toMatch(
      new RegExp(
        `\\nheld by +${held[header.indexOf('heldBy')] ?? ''} \\(.+: at most probable; held from \\d\\.\\d{6}\\)\\n`,
      ),
    );
    const scan = await runCli([...db, 'link-quality', 'scan', '--json']);
    expect(scan.code, scan.stderr).toBe(0);
    const scanned = JSON.parse(scan.stdout) as {
      identitiesWithSeveralRecords: number;
      pairsScored: number;
      flagged: number;
    };
    expect(scanned.identitiesWithSeveralRecords).toBeGreaterThan(0);
    expect(scanned.pairsScored).toBeGreaterThanOrEqual(scanned.identitiesWithSeveralRecords);
    // A link quality case says which flags its identity's records raise now, judged under the scan's default bound
    // of 20 records: an identity of three flagged too-large under a bound of two raises none of them.
    const tight = await runCli([...db, 'link-quality', 'scan', '--max-records', '2', '--json']);
    expect((JSON.parse(tight.stdout) as { byFlag: Record<string, number> }).byFlag['too-large']).toBeGreaterThan(0);
    // Not trimmed: a row's last cell (the twin case) is empty for a link quality case.
    const linkCases = (await runCli([...db, 'reviews', '--kind', 'LinkQuality'])).stdout
      .replace(/\n$/, '')
      .split('\n')
      .slice(1);
    const flagLines: (string | undefined)[] = [];
    const shownFirst: (string | undefined)[] = [];
    for (const row of linkCases) {
      const shown = await runCli([...db, 'review', 'show', row.split('\t')[0] ?? '']);
      flagLines.push(/\nflags +(.+)\n/.exec(shown.stdout)?.[1]);
      shownFirst.push(/\nshown first +(.+)\n/.exec(shown.stdout)?.[1]);
    }
    expect(flagLines).toContain('none now');
    // The list says the same flags in a column after those scripts already read by position (then the twin case).
    const listHeader = (await runCli([...db, 'reviews', '--kind', 'LinkQuality'])).stdout.split('\n')[0] ?? '';
    expect(listHeader).toMatch(/\tcreatedAt\tsourceSystem\tstale\tflags\ttwinReason$/);
    expect(linkCases.map((row) => (row.split('\t').at(-2) ?? '').replaceAll(',', ', '))).toEqual(flagLines);
    // Each case says which pair it shows first and why: the weakest link, unless a flag other than a weak bridge
    // names a pair (two records of one source, or in conflict).
    flagLines.forEach((flags = '', i) => {
      const first = flags.split(', ')[0];
      expect(shownFirst[i]).toMatch(
        first === 'same-source'
          ? /^two records of one source/
          : first === 'sex-conflict' || first === 'birth-date-conflict'
            ? /^two records (that state different sexes|whose birth dates differ)/
            : /^the identity's weakest link/,
      );
    });
    // A link quality case is about one identity, scored by its weakest link.
    const linkShown = (await runCli([...db, 'review', 'show', linkCases[0]?.split('\t')[0] ?? ''])).stdout;
    expect(linkShown).toMatch(/\nscore +\d\.\d{6} \(the identity's weakest link, profile version \d+\)\n/);
    expect(linkShown).not.toMatch(/\nright /);
    // The evidence printed is the case's own, as the scan stored it: its weakest link's, whichever pair is shown first.
    expect(linkShown).toMatch(/\nthe weakest link's evidence when the case was opened\nfield +band +weight/);
    expect(flagLines.every((line) => line !== undefined && /^(none now|[a-z-]+(, [a-z-]+)*)$/.test(line))).toBe(true);
    const firstRow = (
      JSON.parse((await runCli([...db, 'identities', '--json'])).stdout) as {
        rows: { enterpriseId: string; sourceSystem: string; localId: string }[];
      }
    ).rows[0];
    const eid = firstRow?.enterpriseId ?? '';
    // From a record to its identity; a record the tenant does not hold is not found, exit 1, the local ID not echoed.
    const found = await runCli([
      ...db,
      'identity',
      'find',
      `${firstRow?.sourceSystem ?? ''}/${firstRow?.localId ?? ''}`,
    ]);
    expect(found.stdout).toMatch(new RegExp(`^enterprise ID +${eid}\nstatus +active\n`));
    const notFound = await runCli([...db, 'identity', 'find', `${firstRow?.sourceSystem ?? ''}/NO-SUCH-RECORD-77`]);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/no record with this local ID from source system/);
    expect(notFound.stderr).not.toMatch(/NO-SUCH-RECORD/);
    expect((await runCli([...db, 'identity', 'find', 'no-slash'])).stderr).toMatch(/the record is SYSTEM\/ID/);
    const history = await runCli([...db, 'identity', 'show', eid, '--history']);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toMatch(/arrived; no candidate was Certain, so a new identity/);
    // Patient values only when asked: the canonical record, each field beside the record it came from.
    expect(history.stdout).not.toMatch(/canonical value/);
    const values = await runCli([...db, 'identity', 'show', eid, '--values']);
    expect(values.code, values.stderr).toBe(0);
    expect(values.stdout).toMatch(/\nfield +canonical value +from\n/);
    expect(values.stdout).toMatch(/\nfamilyName +[a-z][a-z' -]* +[a-z-]+\/\S+\n/);
    // From one of the identity's own records.
    const from = /\nfamilyName +\S.* +(\S+)\/(\S+)\n/.exec(values.stdout);
    expect(values.stdout).toMatch(new RegExp(`\\n${from?.[1] ?? '-'} +${from?.[2] ?? '-'} `));
    const unchanged = join(dir, 'unchanged.json');
    writeFileSync(unchanged, '{}');
    const preview = await runCli([...db, 'profile', 'apply', unchanged, '--preview', '--json']);
    expect(preview.code, preview.stderr).toBe(0);
    expect((JSON.parse(preview.stdout) as { changes: Record<string, number> }).changes).toEqual({
      'link-below-certain': 0,
      'new-certain': 0,
      'new-review': 0,
      'leaves-review': 0,
    });
    const previewText = await runCli([...db, 'profile', 'apply', unchanged, '--preview']);
    expect(previewText.stdout).toContain('Nothing was applied.');
    const audit = await runCli([
      ...db,
      'audit',
      'sample',
      '--out',
      join(dir, 'audit.json'),
      '--labels',
      '40',
      '--seed',
      '3',
    ]);
    expect(audit.code, audit.stderr).toBe(0);
    const toLabel = readFileSync(join(dir, 'audit.tsv'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(toLabel[0]).toBe('leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch');
    // A person labels every pair (here: all the same way); the estimate names its method and bounds.
    writeFileSync(
      join(dir, 'audit-labels.tsv'),
      toLabel.map((line, i) => (i === 0 ? line : `${line}non-match`)).join('\n') + '\n',
    );
    const estimated = await runCli([
      ...db,
      'audit',
      'estimate',
      '--sample',
      join(dir, 'audit.json'),
      '--labels',
      join(dir, 'audit-labels.tsv'),
    ]);
    expect(estimated.code, estimated.stderr).toBe(0);
    expect(estimated.stdout).toMatch(/precision of links\s+0\.0000 \(95%: 0\.0000 to /);
    expect(estimated.stdout).toContain('Stratified expansion estimator');
    expect(estimated.stdout).not.toContain('ground truth');
    // On a synthetic sandbox the ground truth can label the sample: every row comes with its isMatch filled.
    const truthOut = join(dir, 'audit-truth.json');
    const byTruth = await runCli([...db, 'audit', 'sample', '--out', truthOut, '--labels', '40', '--ground-truth']);
    expect(byTruth.code, byTruth.stderr).toBe(0);
    expect(byTruth.stdout).toMatch(/, (\d+) of them labelled from the ground truth, not by a person; then/);
    const truthRows = readFileSync(join(dir, 'audit-truth.tsv'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .slice(1);
    expect(truthRows.length).toBeGreaterThan(0);
    expect(truthRows.every((line) => /\t(match|non-match)$/.test(line))).toBe(true);
    expect(truthRows.some((line) => line.endsWith('\tmatch'))).toBe(true);
    const fromTruth = await runCli([
      ...db,
      'audit',
      'estimate',
      '--sample',
      truthOut,
      '--labels',
      join(dir, 'audit-truth.tsv'),
    ]);
    expect(fromTruth.code, fromTruth.stderr).toBe(0);
    // The sandbox's links are the truth's: the linked pairs drawn are all one person.
    expect(fromTruth.stdout).toMatch(/precision of links\s+1\.0000 \(95%: 0\.\d+ to 1\.0000/);
    // It says whose labels they are; a label a person changed is the person's.
    expect(fromTruth.stdout).toMatch(
      new RegExp(`labels\\s+${String(truthRows.length)}, all from the ground truth, not a person;`),
    );
    const changed = join(dir, 'audit-truth-changed.tsv');
    writeFileSync(
      changed,
      ['leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch', ...truthRows]
        .map((line, i) =>
          i !== 1
            ? line
            : line.endsWith('\tmatch')
              ? line.replace(/\tmatch$/, '\tnon-match')
              : line.replace(/\tnon-match$/, '\tmatch'),
        )
        .join('\n') + '\n',
    );
    const partly = await runCli([...db, 'audit', 'estimate', '--sample', truthOut, '--labels', changed]);
    expect(partly.code, partly.stderr).toBe(0);
    expect(partly.stdout).toMatch(
      new RegExp(
        `labels\\s+${String(truthRows.length)}, ${String(truthRows.length - 1)} of them from the ground truth, not a person;`,
      ),
    );
    const badDecision = await runCli([...db, 'review', 'decide', caseId, '--decision', 'maybe', '--reason', 'x']);
    expect(badDecision.code).toBe(2);
    expect(badDecision.stderr).toContain('--decision is one of same-person, different-people, unsure');

    const compare = await runCli([...db, 'compare', '--comparator', 'JaroWinkler', 'MARTHA', 'MARHTA', '--json']);
    expect(JSON.parse(compare.stdout)).toMatchObject({ comparator: 'JaroWinkler', band: 'Strong' });
    expect((JSON.parse(compare.stdout) as { similarity: number }).similarity).toBeCloseTo(0.9611, 4);

    const show = await runCli([...db, 'profile', 'show']);
    const active = JSON.parse(show.stdout) as {
      matchingProfileVersion: number;
      profile: { Comparators: { NicknameDictionaries: unknown[] } };
    };
    expect(active.matchingProfileVersion).toBe(1);
    expect(active.profile.Comparators.NicknameDictionaries).toEqual([]);
  });

  it('validates and applies a profile as a new version, and reports every invalid path', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db')];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const dictionary = JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../../../engine/comparators/dictionaries/en-US.json', import.meta.url)),
        'utf8',
      ),
    ) as unknown;
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        Comparators: {
          Version: 'comparators-2',
          FamilyName: ['JaroWinkler', 'Phonetic'],
          GivenNames: ['JaroWinkler', 'Nickname'],
          PhoneticMatchFloor: 0.88,
          NicknameMatchFloor: 0.9,
          NicknameDictionaries: [dictionary],
        },
      }),
    );
    expect((await runCli([...db, 'profile', 'validate', good])).stdout).toMatch(/valid/);
    const applied = await runCli([...db, 'profile', 'apply', good, '--json']);
    expect(JSON.parse(applied.stdout)).toEqual({ matchingProfileVersion: 2, previousVersion: 1 });
    const nickname = JSON.parse(
      (await runCli([...db, 'compare', '--comparator', 'Nickname', 'Bill', 'William', '--json'])).stdout,
    ) as Record<string, unknown>;
    expect(nickname).toMatchObject({ similarity: 0.9, culture: 'en-US', dictionaryVersion: 'en-US-demo-1' });

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        Comparators: {
          Version: 'c3',
          FamilyName: ['Soundex'],
          GivenNames: ['Nickname'],
          PhoneticMatchFloor: 2,
          NicknameMatchFloor: 0.9,
          NicknameDictionaries: [],
        },
      }),
    );
    const invalid = await runCli([...db, 'profile', 'validate', bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/Comparators\.FamilyName\[0\].*"Soundex"/);
    expect(invalid.stdout).toMatch(/Comparators\.PhoneticMatchFloor/);
    expect(invalid.stdout).toMatch(/Nickname/);
    const refused = await runCli([...db, 'profile', 'apply', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/validation error/);
    expect(JSON.parse((await runCli([...db, 'profile', 'show'])).stdout)).toMatchObject({ matchingProfileVersion: 2 });
  });

  it('ingests an NDJSON file, reports rejected lines and exits non-zero for them', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db')];
    await runCli([...db, 'sandbox', 'init']);
    const file = join(dir, 'in.ndjson');
    const good = {
      resourceType: 'Patient',
      id: 'p1',
      identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: 'SM1' }],
      name: [{ family: 'Ngata', given: ['Aroha'] }],
      birthDate: '1991-07-04',
    };
    writeFileSync(
      file,
      [JSON.stringify(good), '{not json', JSON.stringify({ ...good, birthDate: '1991-13-40' })].join('\n'),
    );
    const run = await runCli([...db, 'ingest', '--source', 'st-marys-hospital', '--ndjson', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/created\s+1/);
    expect(run.stdout).toMatch(/^2\s+line\s+not valid JSON/m);
    expect(run.stdout).toMatch(/^3\s+\S*birthDate/m);
    expect(run.stdout).not.toContain('Ngata');
  });

  it('exits non-zero with a clear message on errors', async () => {
    const dir = tempDir();
    expect((await runCli(['--db', join(dir, 's.db'), 'sandbox', 'init'])).code).toBe(0);
    const unknownTenant = await runCli(['--db', join(dir, 's.db'), '--tenant', 'ghost', 'identities']);
    expect(unknownTenant.code).toBe(1);
    expect(unknownTenant.stderr).toMatch(/tenant "ghost" is not registered/);
    expect((await runCli(['--db', join(dir, 's.db'), 'frobnicate'])).code).toBe(2);
    expect((await runCli(['--db', join(dir, 's.db'), 'compare', '--comparator', 'Nope', 'a', 'b'])).stderr).toMatch(
      /unknown comparator "Nope"/,
    );
    expect(
      (await runCli(['--db', join(dir, 's.db'), 'explain', '--left', 'nosplit', '--right', 'a/b'])).stderr,
    ).toMatch(/SYSTEM\/ID/);
    // The command line's own mistakes: one line naming the option and what to type, then where help is.
    for (const [args, said] of [
      [
        ['estimate', '--model-version', 'v', '--random-pairs', '-5'],
        /^mpi-console: --random-pairs takes a value, and the word after it starts with a dash: if that is the value, write --random-pairs=VALUE/,
      ],
      [['estimate', '--model-version'], /^mpi-console: --model-version needs a value\n/],
      [['jobs', '--frobnicate'], /^mpi-console: unknown option --frobnicate\n/],
      [['jobs', '--json=yes'], /^mpi-console: --json takes no value\n/],
    ] as const) {
      const answer = await runCli(['--db', join(dir, 's.db'), ...args]);
      expect(answer.code).toBe(2);
      expect(answer.stderr).toMatch(said);
      expect(answer.stderr.trim().split('\n')).toHaveLength(2);
      expect(answer.stderr).toMatch(/Run mpi-console --help for the commands and their options\.\n$/);
    }
    const json = await runCli(['--db', join(dir, 's.db'), '--tenant', 'ghost', 'reviews', '--json']);
    expect(JSON.parse(json.stderr)).toMatchObject({ type: 'EngineError', kind: 'not_found' });
  });

  it('runs as the mpi-console executable', () => {
    const dir = tempDir();
    const out = execFileSync(
      process.execPath,
      [bin, '--db', join(dir, 'x.db'), 'sandbox', 'init', '--synthetic', '20', '--json'],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toMatchObject({ tenantId: 'demo', syntheticPeople: 20 });
    const failed = spawnSync(process.execPath, [bin, '--db', join(dir, 'x.db'), '--tenant', 'nobody', 'identities'], {
      encoding: 'utf8',
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/not registered/);
  });
});
