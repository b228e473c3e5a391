import { Badge, Button, createTheme, NumberInput, Select, TextInput, type CSSVariablesResolver } from '@mantine/core';

const FIELD_IN_A_GRID = {
  root: { display: 'flex', flexDirection: 'column' },
  wrapper: { marginTop: 'auto' },
} as const;

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  components: {
    // A badge is a word or two that must be read whole: Mantine cuts its label with an ellipsis when its column is
    // narrow ("Out of …" in the review list beside a long link-quality row). At least as wide as its text, always.
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content' } } }),
    // A button's label likewise: beside a long paragraph in a row that does not wrap, Mantine shrank the button and cut
    // its label ("Scan identi", "Preview the imp") at a laptop's 1,024 pixels.
    Button: Button.extend({ styles: { root: { minWidth: 'max-content' } } }),
    // Fields side by side in a grid line up their boxes whatever the length of their descriptions: the label and
    // description stay at the top of the cell, the box goes to its bottom (a cell not stretched by a grid is as before).
    TextInput: TextInput.extend({ styles: FIELD_IN_A_GRID }),
    NumberInput: NumberInput.extend({ styles: FIELD_IN_A_GRID }),
    Select: Select.extend({ styles: FIELD_IN_A_GRID }),
  },
});

/**
 * Text colours that keep at least 4.5:1 contrast (WCAG AA) on white, on gray.0 and on the light variants'
 * tinted backgrounds: secondary text one shade darker than Mantine's default, and the text of light badges,
 * alerts and buttons darker than Mantine's shade (orange and teal at shade 9 still fall short).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': '#b02525',
    // Links stay readable on a hovered table row (gray.1) too.
    '--mantine-color-anchor': 'var(--mantine-color-indigo-9)',
    '--mantine-color-orange-light-color': '#a1360a',
    '--mantine-color-teal-light-color': '#066649',
    '--mantine-color-blue-light-color': '#114a80',
    '--mantine-color-red-light-color': '#b02525',
    '--mantine-color-indigo-light-color': '#2b3d9e',
    '--mantine-color-gray-light-color': '#343a40',
  },
  dark: {},
});
