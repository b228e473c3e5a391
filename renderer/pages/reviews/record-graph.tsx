/**
 * One identity's records as a small graph: a node per record (numbered, named in the legend), an edge per pair
 * coloured by its score: solid teal at or above Probable, dashed red below. The groups a weak link joins show as
 * clusters with only red edges between them. An edge is a button: it opens that pair in the comparison viewer.
 * Records whose source holds another of the identity's records are ringed in orange and named so in the legend: a
 * source keeps one record per patient, so two of them may be two people however well every pair scores.
 */
import { Group, Stack, Text } from '@mantine/core';
import type { RecordRef } from '../../../engine/contract/matching.ts';

const SIZE = 260;
const RADIUS = 96;
const NODE = 14;

export interface GraphEdge {
  readonly a: number;
  readonly b: number;
  readonly score: number;
}

function position(index: number, count: number): { x: number; y: number } {
  const angle = (2 * Math.PI * index) / Math.max(1, count) - Math.PI / 2;
  return { x: SIZE / 2 + RADIUS * Math.cos(angle), y: SIZE / 2 + RADIUS * Math.sin(angle) };
}

export function RecordGraph({
  records,
  edges,
  probable,
  selected,
  onSelect,
}: {
  readonly records: readonly RecordRef[];
  readonly edges: readonly GraphEdge[];
  readonly probable: number;
  readonly selected?: { readonly a: number; readonly b: number } | undefined;
  readonly onSelect?: (edge: GraphEdge) => void;
}) {
  const points = records.map((_, i) => position(i, records.length));
  const label = (i: number): string => String(i + 1);
  /** For each record, the other records of its source (by number). */
  const sameSource = records.map((r, i) =>
    records.flatMap((other, j) => (j !== i && other.sourceSystem === r.sourceSystem ? [label(j)] : [])),
  );
  const ringed = (i: number): boolean => (sameSource[i]?.length ?? 0) > 0;
  const anySameSource = records.some((_, i) => ringed(i));
  return (
    <Group align="flex-start" gap="lg" wrap="wrap">
      <svg
        width={SIZE}
        height={SIZE}
        viewBox={`0 0 ${String(SIZE)} ${String(SIZE)}`}
        role="group"
        aria-label="The identity's records and the score of every pair"
        data-testid="record-graph"
      >
        {/* Weak edges first, so the strong ones draw over them. */}
        {[...edges]
          .sort((x, y) => x.score - y.score)
          .map((edge) => {
            const from = points[edge.a];
            const to = points[edge.b];
            if (from === undefined || to === undefined) return null;
            const strong = edge.score >= probable;
            const isSelected = selected !== undefined && selected.a === edge.a && selected.b === edge.b;
            const name = `Compare records ${label(edge.a)} and ${label(edge.b)}: score ${edge.score.toFixed(4)}, ${strong ? 'at or above' : 'below'} Probable`;
            const choose = (): void => onSelect?.(edge);
            return (
              <g
                key={`${String(edge.a)}-${String(edge.b)}`}
                role={onSelect === undefined ? undefined : 'button'}
                tabIndex={onSelect === undefined ? undefined : 0}
                aria-label={name}
                aria-pressed={onSelect === undefined ? undefined : isSelected}
                data-edge={`${String(edge.a)}-${String(edge.b)}`}
                data-strong={strong}
                onClick={choose}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    choose();
                  }
                }}
                style={{ cursor: onSelect === undefined ? 'default' : 'pointer', outline: 'none' }}
              >
                <title>{name}</title>
                <line x1={from.x} y1={from.y} x2={to.x} y2={to.y} stroke="transparent" strokeWidth={12} />
                <line
                  x1={from.x}
                  y1={from.y}
                  x2={to.x}
                  y2={to.y}
                  stroke={strong ? 'var(--mantine-color-teal-7)' : 'var(--mantine-color-red-7)'}
                  strokeWidth={isSelected ? 5 : 2.5}
                  strokeDasharray={strong ? undefined : '5 4'}
                />
              </g>
            );
          })}
        {points.map((point, i) => (
          <g key={label(i)} aria-hidden="true">
            <circle
              cx={point.x}
              cy={point.y}
              r={NODE}
              fill="var(--mantine-color-white)"
              stroke={ringed(i) ? 'var(--mantine-color-orange-8)' : 'var(--mantine-color-dark-6)'}
              strokeWidth={ringed(i) ? 4 : 1.5}
              data-same-source={ringed(i)}
            />
            <text
              x={point.x}
              y={point.y}
              textAnchor="middle"
              dominantBaseline="central"
              fontSize={12}
              fontWeight={700}
              fill="var(--mantine-color-dark-9)"
            >
              {label(i)}
            </text>
          </g>
        ))}
      </svg>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Records
        </Text>
        {records.map((r, i) => (
          <Text size="sm" key={`${r.sourceSystem}/${r.localId}`} data-same-source={ringed(i)}>
            <b>{label(i)}</b>{' '}
            <bdi>
              {r.sourceSystem} / {r.localId}
            </bdi>
            {ringed(i) ? (
              <Text span size="sm" fw={600}>
                {` · same source as ${(sameSource[i] ?? []).join(', ')}`}
              </Text>
            ) : null}
          </Text>
        ))}
        <Text size="xs" c="dimmed" mt={6} maw={320}>
          Solid teal: the pair scores at or above Probable ({probable.toFixed(2)}). Dashed red: below. Records joined
          only by red edges may be two people.
          {anySameSource
            ? ' Ringed in orange: records of one source, which keeps one record per patient, so they may be two people.'
            : ''}
          {onSelect === undefined ? '' : ' Choose an edge to compare its two records.'}
        </Text>
      </Stack>
    </Group>
  );
}
