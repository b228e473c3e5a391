/** The way back to the Review cases list from a case or an identity, and where the reader is. */
import { Anchor, Breadcrumbs, Group, Text } from '@mantine/core';
import { paths } from '../../hooks/route.ts';
import { IconArrowLeft } from '../../icons.tsx';

export function ReviewsBreadcrumb({ current }: { readonly current: string }) {
  return (
    <Breadcrumbs>
      <Anchor href={paths.reviews()} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} /> Review cases
        </Group>
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}
