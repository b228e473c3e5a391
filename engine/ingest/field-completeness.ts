/** How many records carried each matching field the health figures follow (contract/health.ts HEALTH_FIELDS). */
import type { MatchFields } from '../contract/fields.ts';
import { HEALTH_FIELDS, type HealthField } from '../contract/health.ts';

export class FieldCompleteness {
  readonly counts: Record<HealthField, number> = Object.fromEntries(HEALTH_FIELDS.map((f) => [f, 0])) as Record<
    HealthField,
    number
  >;

  count(fields: MatchFields): void {
    for (const field of HEALTH_FIELDS) {
      const value = fields[field];
      if (Array.isArray(value) ? value.length > 0 : value !== null && value !== '') this.counts[field]++;
    }
  }
}
