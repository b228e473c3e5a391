/**
 * The way from a flag on a source's review rate to the cases behind it: the Review cases list of that source's
 * ingestion cases opened after its ingest before the latest ended (the latest ingest's cases), newest first; with one
 * ingest of the source among the figures, every case of the source, newest first.
 */
import { Button } from '@mantine/core';
import { latestIngestOpenedAfter, type HealthSample } from '../../../engine/contract/health.ts';
import { paths } from '../../hooks/route.ts';
import { putListView } from '../reviews/list-view.ts';

export function FlagCasesButton({
  connectionKey,
  sourceSystem,
  samples,
}: {
  readonly connectionKey: string;
  readonly sourceSystem: string;
  readonly samples: readonly HealthSample[];
}) {
  const openedAfter = latestIngestOpenedAfter(samples, sourceSystem);
  return (
    <Button
      variant="light"
      color="orange"
      size="xs"
      mt={4}
      component="a"
      href={paths.reviews()}
      onClick={() => {
        putListView(connectionKey, { kind: 'IngestionMatch', source: sourceSystem, openedAfter, sort: 'newest' });
      }}
    >
      {openedAfter === null
        ? `Open the cases from ${sourceSystem}, newest first`
        : `Open the cases of ${sourceSystem}'s latest ingest`}
    </Button>
  );
}
