/**
 * A produced Fellegi-Sunter model (calibrated or estimated): the complete JSON to view, copy and save as a file,
 * its differences from the active profile's model, and how a model is applied (spec rule 5's governed
 * procedure) instead of any activation control.
 */
import { Button, Card, Code, CopyButton, Group, List, ScrollArea, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import type { ReactNode } from 'react';
import type { FellegiSunterModel } from '../../../engine/contract/profile.ts';
import { IconCopy, IconDownload, IconInfo } from '../../icons.tsx';
import { ModelDiff } from './model-diff.tsx';
import { ImpactPreviewPanel } from './impact-preview.tsx';
import { saveText } from './save-file.ts';
import { thresholdFigure } from '../../format.ts';

export function ModelJsonCard({
  model,
  connectionKey,
  idPrefix,
  produced,
  thresholds,
  children,
}: {
  readonly model: FellegiSunterModel;
  /** The thresholds that belong with the model: offered as one profile document with it. */
  readonly thresholds?: { readonly Certain: number; readonly Probable: number } | undefined;
  readonly connectionKey: string;
  readonly idPrefix: string;
  /** What produced the model, as the sentence's subject ("A calibrated model"). */
  readonly produced: string;
  /** More of how to apply it, inside the procedure's note. */
  readonly children?: ReactNode;
}) {
  const json = `${JSON.stringify(model, null, 2)}\n`;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={`${idPrefix}-model-title`}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id={`${idPrefix}-model-title`}>
          Model JSON
        </Title>
        <Group gap="xs">
          <CopyButton value={json}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} />}
            onClick={() => {
              saveText(`${model.modelVersion}.model.json`, json, 'application/json');
            }}
          >
            Save as a file
          </Button>
          {thresholds === undefined ? null : (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} />}
              data-testid={`${idPrefix}-save-with-thresholds`}
              onClick={() => {
                const document = {
                  MatchingRules: {
                    FellegiSunter: model,
                    Thresholds: { Certain: thresholds.Certain, Probable: thresholds.Probable },
                  },
                };
                saveText(
                  `${model.modelVersion}.with-thresholds.json`,
                  `${JSON.stringify(document, null, 2)}\n`,
                  'application/json',
                );
              }}
            >
              Save with its thresholds (Certain {thresholdFigure(thresholds.Certain).text}, Probable{' '}
              {thresholdFigure(thresholds.Probable).text})
            </Button>
          )}
        </Group>
      </Group>
      <ScrollArea.Autosize
        mah={360}
        type="auto"
        viewportProps={{ tabIndex: 0, 'aria-label': 'Model JSON, scrollable' }}
      >
        <Code block data-testid="model-json">
          {json}
        </Code>
      </ScrollArea.Autosize>
      <Title order={3} size="h5" mt="md" mb="xs">
        Compared with the active model
      </Title>
      <ModelDiff produced={model} connectionKey={connectionKey} />
      <ImpactPreviewPanel
        document={
          thresholds === undefined
            ? model
            : {
                MatchingRules: {
                  FellegiSunter: model,
                  Thresholds: { Certain: thresholds.Certain, Probable: thresholds.Probable },
                },
              }
        }
      />
      <Note
        mt="md"
        color="blue"
        variant="light"
        icon={<IconInfo />}
        title="This page never activates a model"
        data-testid="governed-procedure"
      >
        <Text size="sm" mb={4}>
          {produced} is applied only through the governed configuration change:
        </Text>
        <List size="sm" type="ordered">
          <List.Item>approve the dataset and the thresholds;</List.Item>
          <List.Item>
            copy the model to the tenant's MatchingRules:FellegiSunter configuration and assign a new
            MatchingProfileVersion;
          </List.Item>
          <List.Item>deploy the identical profile to the API, portal and MLLP hosts;</List.Item>
          <List.Item>re-evaluate against an independent holdout;</List.Item>
          <List.Item>monitor review volumes, errors and drift.</List.Item>
        </List>
        {children}
      </Note>
    </Card>
  );
}
