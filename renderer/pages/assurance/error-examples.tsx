/**
 * An evaluation's error examples (references only): grouped first by their pattern of fields at a glance, most
 * common first, then listed as false positives and false negatives, each openable as its explanation. Choosing a
 * pattern lists only its examples, so an analyst can open the pairs of one kind of error one after another.
 */
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { z } from 'zod';
import type { ErrorExampleSchema, EvaluationReport } from '../../../engine/contract/assurance.ts';
import { limitLabel } from '../../../engine/contract/score-explanation.ts';
import { formatCount, formatCountOf } from '../../format.ts';
import { FieldStrip, FieldStripLegend, FieldsCell } from './field-strip.tsx';
import { fieldsAtAGlance, glancePatterns, type GlancePattern } from './field-glance.ts';
import { schemaCodec, usePageState } from '../../hooks/page-state.ts';

export type ErrorExample = z.infer<typeof ErrorExampleSchema>;

/** A record as an example names it: "northside-gp / 1234". */
export function exampleRef(r: { readonly sourceSystem: string; readonly localId: string }): string {
  return `${r.sourceSystem} / ${r.localId}`;
}

/** How many patterns the examples' pattern table shows; the rest are counted in a line under it. */
const PATTERNS_SHOWN = 8;

/** The line under the pattern table: "And 2 more patterns, 3 examples between them." */
function restText(rest: readonly GlancePattern[]): string {
  const examples = rest.reduce((n, p) => n + p.total, 0);
  return rest.length === 1
    ? `And 1 more pattern, ${formatCountOf(examples, 'example')}.`
    : `And ${formatCountOf(rest.length, 'more pattern')}, ${formatCountOf(examples, 'example')} between them.`;
}

/**
 * The error examples grouped by their fields at a glance, most common first: what kinds of pair the profile gets
 * wrong, read in a few rows before opening any example. Each row's button lists only that pattern's examples.
 */
function ExamplePatterns({
  patterns,
  chosen,
  onChoose,
}: {
  readonly patterns: readonly GlancePattern[];
  readonly chosen: string | null;
  readonly onChoose: (pattern: string | null) => void;
}) {
  if (patterns.length === 0) return null;
  const rest = patterns.slice(PATTERNS_SHOWN);
  return (
    <div>
      <Text fw={600} mb={4}>
        Patterns among the examples
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table
          striped
          aria-label="Patterns among the error examples"
          data-testid="example-patterns"
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Fields</Table.Th>
              <Table.Th>In words</Table.Th>
              <Table.Th>False positives</Table.Th>
              <Table.Th>False negatives</Table.Th>
              <Table.Th>Examples</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {patterns.slice(0, PATTERNS_SHOWN).map((pattern) => {
              const isChosen = pattern.glance.text === chosen;
              return (
                <Table.Tr key={pattern.glance.text} {...(isChosen ? { bg: 'var(--mantine-color-blue-light)' } : {})}>
                  <Table.Td>
                    <FieldStrip glance={pattern.glance} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{pattern.glance.text}</Text>
                  </Table.Td>
                  <Table.Td>{formatCount(pattern.counts.get('fp') ?? 0)}</Table.Td>
                  <Table.Td>{formatCount(pattern.counts.get('fn') ?? 0)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant={isChosen ? 'filled' : 'light'}
                      aria-pressed={isChosen}
                      aria-label={`${isChosen ? 'Showing' : 'Show'} only the ${formatCountOf(pattern.total, 'example')} of this pattern: ${pattern.glance.text}`}
                      onClick={() => {
                        onChoose(isChosen ? null : pattern.glance.text);
                      }}
                    >
                      {isChosen ? 'Shown' : 'Show only'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rest.length === 0 ? null : (
        <Text size="xs" c="dimmed" mt={4} data-testid="example-patterns-rest">
          {restText(rest)}
        </Text>
      )}
    </div>
  );
}

/** One kind of error example under its heading, with how many there are: a table, or a line when there is none. */
function ExamplesSection({
  title,
  examples,
  of,
  onOpen,
}: {
  readonly title: string;
  readonly examples: readonly ErrorExample[];
  /** With a pattern chosen: how many examples of this kind there are in all. */
  readonly of: number | null;
  readonly onOpen: (example: ErrorExample) => void;
}) {
  const testId = `examples-${title.toLowerCase().replace(/\s+/g, '-')}`;
  const heading = (
    <Group gap="xs" mb={4}>
      <Text fw={600}>{title}</Text>
      <Badge variant="light" color="gray" radius="sm" tt="none" data-testid={`${testId}-count`}>
        {of === null ? examples.length : `${String(examples.length)} of ${String(of)}`}
      </Badge>
    </Group>
  );
  if (examples.length === 0)
    return (
      <div>
        {heading}
        <Text size="sm" c="dimmed">
          No {title.toLowerCase()} among the examples{of === null ? '' : ' of this pattern'}.
        </Text>
      </div>
    );
  return (
    <div>
      {heading}
      <Table.ScrollContainer minWidth={760}>
        <Table striped aria-label={title} data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Left record</Table.Th>
              <Table.Th>Right record</Table.Th>
              <Table.Th>Labelled</Table.Th>
              <Table.Th>Score</Table.Th>
              <Table.Th>Decided by</Table.Th>
              <Table.Th>Fields</Table.Th>
              <Table.Th>Explanation</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {examples.map((example) => (
              <Table.Tr key={`${exampleRef(example.left)}|${exampleRef(example.right)}`}>
                <Table.Td>{exampleRef(example.left)}</Table.Td>
                <Table.Td>{exampleRef(example.right)}</Table.Td>
                <Table.Td>{example.isMatch ? 'Match' : 'Non-match'}</Table.Td>
                <Table.Td>{example.score.toFixed(4)}</Table.Td>
                <Table.Td>
                  {example.decidedBy}
                  {example.limitedBy === undefined ? '' : ` (${limitLabel(example.limitedBy, example.twinReason)})`}
                </Table.Td>
                <Table.Td>
                  <FieldsCell evidence={example.evidence} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => {
                      onOpen(example);
                    }}
                    aria-label={`Explain the score of ${exampleRef(example.left)} and ${exampleRef(example.right)}`}
                  >
                    Explain
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}

/** The examples of one pattern (its words at a glance), or all of them with none chosen. */
function ofPattern(examples: readonly ErrorExample[], pattern: string | null): readonly ErrorExample[] {
  return pattern === null ? examples : examples.filter((e) => fieldsAtAGlance(e.evidence)?.text === pattern);
}

/** The pattern chosen (its words at a glance: field names and bands, never a value), kept across reload. */
const PATTERN_CODEC = schemaCodec((stored) => z.string().max(1000).nullable().safeParse(stored));

/**
 * The report's error examples card: the patterns, then both kinds of example, with the squares' legend. The pattern
 * chosen is kept for the connection, across reload and for the next report that shows it (the same kind of error
 * compared between two models); a report without it lists every example.
 */
export function ErrorExamplesCard({
  connectionKey,
  report,
  onOpen,
}: {
  readonly connectionKey: string;
  readonly report: EvaluationReport;
  readonly onOpen: (example: ErrorExample) => void;
}) {
  const { falsePositives, falseNegatives, rule } = report.errorExamples;
  const [chosen, setChosen] = usePageState<string | null>(connectionKey, 'error-pattern', null, PATTERN_CODEC);
  const patterns = glancePatterns([
    { kind: 'fp', pairs: falsePositives },
    { kind: 'fn', pairs: falseNegatives },
  ]);
  // A pattern no longer among the report's (another report shown in the same place) lists every example.
  const pattern = chosen !== null && patterns.some((p) => p.glance.text === chosen) ? chosen : null;
  const of = (all: readonly ErrorExample[]): number | null => (pattern === null ? null : all.length);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="eval-errors-title">
      <Title order={2} size="h4" id="eval-errors-title">
        Error examples
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {rule} Record references only; open one to see how each field moved its score.
      </Text>
      <Stack gap="md">
        <ExamplePatterns patterns={patterns} chosen={pattern} onChoose={setChosen} />
        {pattern === null ? null : (
          <Group gap="sm" data-testid="examples-of-pattern">
            <Text size="sm">Only the examples of one pattern: {pattern}</Text>
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => {
                setChosen(null);
              }}
            >
              Show every example
            </Button>
          </Group>
        )}
        <ExamplesSection
          title="False positives"
          examples={ofPattern(falsePositives, pattern)}
          of={of(falsePositives)}
          onOpen={onOpen}
        />
        <ExamplesSection
          title="False negatives"
          examples={ofPattern(falseNegatives, pattern)}
          of={of(falseNegatives)}
          onOpen={onOpen}
        />
      </Stack>
      {falsePositives.length + falseNegatives.length > 0 ? <FieldStripLegend /> : null}
    </Card>
  );
}
