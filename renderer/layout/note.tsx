/**
 * A callout that informs rather than interrupts. Mantine's Alert is role="alert", which a screen reader announces
 * the moment it appears, cutting into whatever it was reading: right for an error or a stopped worker the user must
 * act on, wrong for a caveat, an explanation, a verdict that passed or a page's situation, which are read in their
 * place. Errors keep Alert; the rest are Notes (role="note").
 */
import { Alert, type AlertProps } from '@mantine/core';

export function Note(props: AlertProps & { readonly 'data-testid'?: string }) {
  return <Alert role="note" {...props} />;
}
