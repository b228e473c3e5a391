/**
 * The `Maintenance` section of the configuration file: the background worker and the scheduled
 * reconciliations. External FHIR sources (`FhirSources`) come with the import phase in a later issue, so a
 * schedule's SourceSystem is refused for now rather than silently ignored.
 */
import { z } from 'zod';

export const MAX_LEASE_SECONDS = 3600;
export const MAX_POLL_SECONDS = 3600;

const TenantIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a tenant ID is 1-64 letters, digits, dot, dash or underscore');

export const ReconciliationScheduleSchema = z.strictObject({
  Key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a schedule key is 1-64 letters, digits, dot, dash or underscore'),
  TenantId: TenantIdSchema,
  SourceSystem: z
    .string()
    .optional()
    .refine((value) => value === undefined, 'importing from an external source is not yet supported; remove SourceSystem for a registry-only schedule'),
  IntervalMinutes: z.number().int('IntervalMinutes is a whole number of minutes').min(1).max(525_600),
  BatchSize: z.number().int('BatchSize is a whole number').min(1).max(25),
  RunOnStartup: z.boolean().default(false),
});
export type ReconciliationSchedule = z.infer<typeof ReconciliationScheduleSchema>;

export const MaintenanceSettingsSchema = z
  .strictObject({
    WorkerEnabled: z.boolean().default(true),
    PollIntervalSeconds: z.number().int('PollIntervalSeconds is a whole number of seconds').min(1).max(MAX_POLL_SECONDS).default(5),
    /** Longer than the slowest batch: a worker that does not renew its lease in time loses the job. */
    LeaseSeconds: z.number().int('LeaseSeconds is a whole number of seconds').min(1).max(MAX_LEASE_SECONDS).default(60),
    ReconciliationSchedules: z.array(ReconciliationScheduleSchema).max(100).default([]),
  })
  .superRefine((section, ctx) => {
    // Map, not an object: tenant IDs and keys are user-chosen. The message names the other entry, never a
    // value (a configuration error must never echo what could be a secret pasted in the wrong place).
    const seen = new Map<string, number>();
    section.ReconciliationSchedules.forEach((schedule, index) => {
      const key = `${schedule.TenantId}\u001f${schedule.Key}`;
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['ReconciliationSchedules', index, 'Key'],
          message: `the same schedule key and tenant as ReconciliationSchedules[${String(first)}]; a schedule key is unique per tenant`,
        });
      } else seen.set(key, index);
    });
  });
export type MaintenanceSettings = z.infer<typeof MaintenanceSettingsSchema>;

/** The maintenance section with its defaults filled in (an absent section means all defaults). */
export function maintenanceSettings(settings: { readonly Maintenance?: MaintenanceSettings | undefined }): MaintenanceSettings {
  return settings.Maintenance ?? MaintenanceSettingsSchema.parse({});
}
