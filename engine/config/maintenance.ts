/**
 * The `Maintenance` section of the configuration file: the background worker, the scheduled reconciliations
 * and the external FHIR sources they can import from (engine/config/fhir-sources.ts). `AllowInsecureHttp`
 * permits plain-HTTP sources for development only: it is refused when NODE_ENV is `production`.
 */
import { z } from 'zod';
import { FhirSourceSchema, transportProblem } from './fhir-sources.ts';

export const MAX_LEASE_SECONDS = 3600;
export const MAX_POLL_SECONDS = 3600;

const TenantIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'a tenant ID is 1-64 letters, digits, dot, dash or underscore');

export const ReconciliationScheduleSchema = z.strictObject({
  Key: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a schedule key is 1-64 letters, digits, dot, dash or underscore'),
  TenantId: TenantIdSchema,
  /** An external source to import from first: a FhirSources entry of the same tenant. */
  SourceSystem: z.string().min(1).max(100).optional(),
  IntervalMinutes: z.number().int('IntervalMinutes is a whole number of minutes').min(1).max(525_600),
  BatchSize: z.number().int('BatchSize is a whole number').min(1).max(25),
  RunOnStartup: z.boolean().default(false),
});
export type ReconciliationSchedule = z.infer<typeof ReconciliationScheduleSchema>;

export const MaintenanceSettingsSchema = z
  .strictObject({
    WorkerEnabled: z.boolean().default(true),
    PollIntervalSeconds: z
      .number()
      .int('PollIntervalSeconds is a whole number of seconds')
      .min(1)
      .max(MAX_POLL_SECONDS)
      .default(5),
    /** Longer than the slowest batch: a worker that does not renew its lease in time loses the job. */
    LeaseSeconds: z.number().int('LeaseSeconds is a whole number of seconds').min(1).max(MAX_LEASE_SECONDS).default(60),
    ReconciliationSchedules: z.array(ReconciliationScheduleSchema).max(100).default([]),
    FhirSources: z.array(FhirSourceSchema).max(100).default([]),
    /** Development only: permits http:// sources and token endpoints; each job run under it records a warning. */
    AllowInsecureHttp: z.boolean().default(false),
  })
  .superRefine((section, ctx) => {
    if (section.AllowInsecureHttp && process.env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['AllowInsecureHttp'],
        message: 'plain HTTP must not be enabled in production (NODE_ENV=production); use HTTPS sources',
      });
    }
    const sources = new Map<string, number>();
    section.FhirSources.forEach((source, index) => {
      const key = `${source.TenantId}\u001f${source.SourceSystem}`;
      const first = sources.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['FhirSources', index, 'SourceSystem'],
          message: `the same tenant and source system as FhirSources[${String(first)}]`,
        });
      } else sources.set(key, index);
      const base = transportProblem(source.BaseUrl, section.AllowInsecureHttp);
      if (base !== undefined) ctx.addIssue({ code: 'custom', path: ['FhirSources', index, 'BaseUrl'], message: base });
      if (source.Authentication.Type === 'ClientCredentials') {
        const token = transportProblem(source.Authentication.TokenEndpoint, section.AllowInsecureHttp);
        if (token !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['FhirSources', index, 'Authentication', 'TokenEndpoint'],
            message: token,
          });
      }
    });
    section.ReconciliationSchedules.forEach((schedule, index) => {
      if (schedule.SourceSystem !== undefined && !sources.has(`${schedule.TenantId}\u001f${schedule.SourceSystem}`)) {
        ctx.addIssue({
          code: 'custom',
          path: ['ReconciliationSchedules', index, 'SourceSystem'],
          message: 'no FhirSources entry of this tenant has this source system',
        });
      }
    });
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
export function maintenanceSettings(settings: {
  readonly Maintenance?: MaintenanceSettings | undefined;
}): MaintenanceSettings {
  return settings.Maintenance ?? MaintenanceSettingsSchema.parse({});
}
