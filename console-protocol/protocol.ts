/**
 * The console's own operations and push events, beside the engine operations (engine/contract/operations.ts).
 * It lives beside the contract, not in it: only the console speaks it (its backend in main/ and its pages in
 * renderer/); the registry API does not. The renderer asks for both through one typed client; the console
 * backend answers console operations itself and routes engine operations to the EngineClient of the current
 * connection, with the call context the backend owns (the tenant and the actor never come from the renderer).
 *
 *   console/status            the connection (or none), the default sandbox folder, recent sandboxes
 *   console/open-sandbox      open an existing local sandbox file (one of its tenants)
 *   console/create-sandbox    create a sandbox file with N synthetic people; progress is pushed meanwhile
 *   console/cancel-sandbox    stop the sandbox creation under way; its partial files are removed
 *   console/close             close the current connection (its embedded worker stops)
 *   console/watch-job         watch a job by ID: its state now, and pushed updates until it ends
 *   console/sign-in           remote registry: start an OAuth 2.0 sign-in (code + PKCE through the system browser)
 *   console/cancel-sign-in    abandon a sign-in that is waiting for the browser
 *   console/use-token         remote registry: connect with a pasted access token (service use)
 *   console/sign-out          forget the remote registry's tokens (memory and storage) and disconnect
 *   console/runs              the saved assurance runs of this connection (every evaluation and calibration
 *                             asked through the console is kept on this workstation), newest first
 *   console/run               one saved run: its request (labels included), its report, versions and time
 *   console/delete-run        forget one saved run
 *   console/start-task        start a long engine operation (estimate, evaluation, calibration, label sample,
 *                             candidate draw) as a task: it runs off the backend's thread, its progress is pushed
 *                             (task/updated) and its output arrives with its end; evaluations, calibrations and
 *                             estimates are kept among the saved runs as before
 *   console/cancel-task       cancel a task; it ends cancelled at its next step, nothing written
 *   console/tasks             the tasks of this connection (a reloaded page picks them up again)
 *
 *   pushed: job/updated (a watched job changed), sandbox/progress, connection/changed, task/updated
 */
import { z } from 'zod';
import { JobStateSchema } from '../engine/contract/maintenance.ts';
import {
  CalibrationOutputSchema,
  CalibrationRequestSchema,
  EvaluationReportSchema,
  EvaluationRequestSchema,
  LabelPairSchema,
  MAX_DATASET_PAIRS,
  VersionsSchema,
} from '../engine/contract/assurance.ts';
import { EstimateOutputSchema, EstimateRequestSchema } from '../engine/contract/estimate.ts';
import { AuditEstimateInputSchema, AuditEstimateSchema } from '../engine/contract/audit.ts';
import {
  operations,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '../engine/contract/operations.ts';
import type { ErrorData } from '../engine/contract/errors.ts';
import { RunOperationSchema, RunStateSchema } from '../engine/contract/runs.ts';

const TenantIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'a tenant ID is 1-64 letters, digits, dot, dash or underscore');
/** Absolute paths only: the backend never resolves a path against its own working folder for the renderer. */
const AbsolutePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'),
    'give a full path (starting with / or a drive letter)',
  );
const FileNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}\.db$/,
    'a file name is letters, digits, space, dot, dash or underscore, ending in .db',
  );

export const ENGINE_OPERATION_NAMES = Object.keys(operations) as OperationName[];
export const EngineOperationNameSchema = z.enum(ENGINE_OPERATION_NAMES as [OperationName, ...OperationName[]]);

/** What the current connection offers: the renderer shows only what is offered. */
export const CapabilitiesSchema = z.object({
  /** The engine operations this connection offers (a local sandbox: all of them). */
  operations: z.array(EngineOperationNameSchema),
  /** The scopes granted to this connection (a local sandbox: every scope, it is the user's own file). */
  scopes: z.array(z.string()),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** The local sandbox's embedded maintenance worker. */
export const WorkerStatusSchema = z.object({
  state: z.enum(['starting', 'running', 'disabled', 'failed', 'stopped']),
  /** Why it is disabled or failed, and what to do; no patient values. */
  message: z.string().nullable(),
});
export type WorkerStatus = z.infer<typeof WorkerStatusSchema>;

export const LocalSandboxConnectionSchema = z.object({
  kind: z.literal('local-sandbox'),
  /** The sandbox database file. */
  path: z.string(),
  tenantId: z.string(),
  /** Recorded as "requested by" on jobs started from the console. */
  actor: z.string(),
  capabilities: CapabilitiesSchema,
  worker: WorkerStatusSchema,
});

/** A remote registry: what the signed-in token says (never the token itself). */
export const RemoteRegistryConnectionSchema = z.object({
  kind: z.literal('remote-registry'),
  /** The registry's base URL. */
  baseUrl: z.string(),
  /** How the token was obtained. */
  method: z.enum(['sign-in', 'token']),
  /** The token's tenant claim: the registry takes the tenant from the token, never from the console. */
  tenantId: z.string(),
  /** Who the registry records as "requested by" (client_id, azp or sub of the token). */
  actor: z.string(),
  /** The signed-in person (ID token `name`, `email` or `sub`); null for a pasted token. */
  identity: z.string().nullable(),
  /** When the access token expires (ISO 8601), null when the token does not say. */
  expiresAt: z.string().nullable(),
  capabilities: CapabilitiesSchema,
  /** Jobs started from (or watched in) this console on this registry, newest first: its memory of jobs. */
  rememberedJobs: z.array(z.string()),
  /** Whether the tokens are kept across restarts (encrypted) or only in memory. */
  storage: z.enum(['memory', 'encrypted']),
});

/** One variant per kind of connection. */
export const ConnectionSchema = z.discriminatedUnion('kind', [
  LocalSandboxConnectionSchema,
  RemoteRegistryConnectionSchema,
]);
export type Connection = z.infer<typeof ConnectionSchema>;

export const RecentSandboxSchema = z.object({
  path: z.string(),
  tenantId: z.string(),
  openedAt: z.string(),
  /** False when the file is gone (moved or deleted) since it was last opened. */
  exists: z.boolean(),
});
export type RecentSandbox = z.infer<typeof RecentSandboxSchema>;

export const SandboxProgressSchema = z.object({
  path: z.string(),
  stage: z.enum(['preparing', 'generating', 'ingesting', 'finishing', 'done', 'failed', 'cancelled']),
  /** Records ingested so far. */
  done: z.number().int(),
  /** Records to ingest; 0 while not yet known. */
  total: z.number().int(),
  /** When failed or cancelled: what went wrong, or what was kept (no patient values). */
  message: z.string().nullable(),
});
export type SandboxProgress = z.infer<typeof SandboxProgressSchema>;

/** A creation's last stages: the status then holds no creation under way. */
export function sandboxCreationEnded(stage: SandboxProgress['stage']): boolean {
  return stage === 'done' || stage === 'failed' || stage === 'cancelled';
}

/** A sign-in waiting for the browser, or the last one that failed (what to do next). */
export const SignInStateSchema = z.object({
  state: z.enum(['waiting', 'failed']),
  baseUrl: z.string(),
  /** The identity provider's authorization URL (no secret: PKCE and state protect the code). */
  authorizationUrl: z.string().nullable(),
  /** When failed: what went wrong and what to do. */
  message: z.string().nullable(),
});
export type SignInState = z.infer<typeof SignInStateSchema>;

/** A registry connected to before: where, and how it was reached (never a token). */
export const RecentRegistrySchema = z.object({
  baseUrl: z.string(),
  method: z.enum(['sign-in', 'token']),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  resource: z.string().nullable(),
  connectedAt: z.string(),
});
export type RecentRegistry = z.infer<typeof RecentRegistrySchema>;

export const ConsoleStatusSchema = z.object({
  connection: ConnectionSchema.nullable(),
  /** Where new sandboxes go unless the user chooses another folder (the user's app-data folder). */
  defaultFolder: z.string(),
  recent: z.array(RecentSandboxSchema),
  /** Remote registries connected to before, newest first (optional: an older backend does not send them). */
  recentRegistries: z.array(RecentRegistrySchema).optional(),
  /** A sandbox creation under way (a reloaded page picks its progress up again). */
  creating: SandboxProgressSchema.nullable(),
  /** A remote sign-in under way or failed; null otherwise. */
  signIn: SignInStateSchema.nullable(),
});
export type ConsoleStatus = z.infer<typeof ConsoleStatusSchema>;

export const MAX_SYNTHETIC_PEOPLE = 100_000;

export const CreateSandboxInputSchema = z.strictObject({
  folder: AbsolutePathSchema,
  fileName: FileNameSchema.default('sandbox.db'),
  tenantId: TenantIdSchema.default('demo'),
  syntheticPeople: z.number().int().min(0).max(MAX_SYNTHETIC_PEOPLE).default(1000),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(7),
});

/** https, or http to a loopback host (development); no user:password, query or fragment. */
const RegistryUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((text) => {
    try {
      const url = new URL(text);
      if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return false;
      if (url.protocol === 'https:') return true;
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      return url.protocol === 'http:' && (host === 'localhost' || host.startsWith('127.') || host === '::1');
    } catch {
      return false;
    }
  }, 'give an https URL (plain http only to localhost, 127.0.0.1 or ::1), without user name, query or fragment');

export const SignInInputSchema = z.strictObject({
  baseUrl: RegistryUrlSchema,
  /** The organisation's identity provider (its issuer identifier; metadata at /.well-known/...). */
  issuer: RegistryUrlSchema,
  /** The console's public client ID at that provider (no client secret: PKCE protects the code). */
  clientId: z.string().trim().min(1, 'give the client ID the identity provider registered for the console').max(200),
  /** The registry API's resource indicator or audience (RFC 8707), when the provider needs one. */
  resource: z.string().trim().max(500).optional(),
});

export const UseTokenInputSchema = z.strictObject({
  baseUrl: RegistryUrlSchema,
  token: z
    .string()
    .trim()
    .min(1, 'paste the access token')
    .max(16_384)
    .regex(/^[A-Za-z0-9\-._~+/]+=*$/, 'one bearer token: letters, digits and -._~+/ only, no spaces or "Bearer "'),
});
export const RUN_KINDS = ['evaluation', 'calibration', 'estimate', 'audit', 'labels'] as const;
export type SavedRunKind = (typeof RUN_KINDS)[number];
export const RunIdSchema = z
  .string()
  .regex(/^run-\d{8}T\d{6}Z-[0-9a-f]{8}$/, 'a run ID looks like run-20260101T120000Z-0123abcd');

/** What the saved-runs list shows of a run (no labels, no examples). */
export const SavedRunSummarySchema = z.object({
  runId: RunIdSchema,
  kind: z.enum(RUN_KINDS),
  createdAt: z.string(),
  /** Who asked (the connection's actor). */
  actor: z.string(),
  /** Estimate: the model's dataset ID (`unsupervised-estimate:seed-S`); a label set: its name. */
  datasetId: z.string(),
  /**
   * SHA-256 of the ordered labelled pairs: two runs on the same labels have the same digest. Estimate: of the
   * records it read, so two estimates of the same records have the same digest.
   */
  datasetDigest: z.string(),
  /** Labelled pairs; estimate: the candidate pairs it modelled. */
  pairs: z.number().int(),
  /** Labelled matches and non-matches; estimate: the expected true pairs among them (rounded) and the rest. */
  matches: z.number().int(),
  nonMatches: z.number().int(),
  /** The versions the run ran under (calibration: those it was trained against; a label set: those active when kept). */
  versions: VersionsSchema,
  /** Evaluation: the requested thresholds; calibration: the held-out grid; estimate: its threshold grid. */
  thresholds: z.array(z.number()),
  /** Calibration and estimate: the produced model's version. */
  modelVersion: z.string().nullable(),
  /**
   * The thresholds that go with the model: a calibration's for live matching, an estimate's suggested ones (null when
   * its fit failed or no live thresholds were measured), with the precision a calibration asked of Certain. They tell
   * apart two runs on the same labels. Optional: summaries saved before them lack them.
   */
  modelThresholds: z
    .object({ Certain: z.number(), Probable: z.number(), targetPrecision: z.number().optional() })
    .nullable()
    .optional(),
  /** Estimate: true when the fit failed its checks (its expected true pairs are then the profile's prior, not a fit). */
  fitFailed: z.boolean().optional(),
  /** Registry audit: how many of its labels came from the ground truth, not a person (absent when none did). */
  labelsFromGroundTruth: z.number().int().min(1).optional(),
});
export type SavedRunSummary = z.infer<typeof SavedRunSummarySchema>;

/** A label set kept by name (console/save-labels): its pairs as record references, the valid rows only. */
export const SaveLabelsInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'give the label set a name')
    .max(100, 'at most 100 characters')
    .regex(/^[^\t\n\r]*$/, 'one line, no tabs'),
  pairs: z.array(LabelPairSchema).min(1, 'the label set has no valid row to keep').max(MAX_DATASET_PAIRS),
});

/** A saved run whole: the request as sent (pairs included, so it can be run again) and its answer. */
export const SavedRunSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('evaluation'),
    summary: SavedRunSummarySchema,
    request: EvaluationRequestSchema,
    report: EvaluationReportSchema,
  }),
  z.object({
    kind: z.literal('calibration'),
    summary: SavedRunSummarySchema,
    request: CalibrationRequestSchema,
    output: CalibrationOutputSchema,
  }),
  z.object({
    kind: z.literal('estimate'),
    summary: SavedRunSummarySchema,
    request: EstimateRequestSchema,
    output: EstimateOutputSchema,
  }),
  z.object({
    kind: z.literal('audit'),
    summary: SavedRunSummarySchema,
    request: AuditEstimateInputSchema,
    output: AuditEstimateSchema,
  }),
  z.object({ kind: z.literal('labels'), summary: SavedRunSummarySchema, request: SaveLabelsInputSchema }),
]);
export type SavedRun = z.infer<typeof SavedRunSchema>;

export const consoleOperations = {
  'console/status': { input: z.strictObject({}), output: ConsoleStatusSchema },
  'console/open-sandbox': {
    input: z.strictObject({ path: AbsolutePathSchema, tenantId: TenantIdSchema.optional() }),
    output: ConsoleStatusSchema,
  },
  'console/create-sandbox': { input: CreateSandboxInputSchema, output: ConsoleStatusSchema },
  'console/cancel-sandbox': { input: z.strictObject({}), output: ConsoleStatusSchema },
  'console/close': { input: z.strictObject({}), output: ConsoleStatusSchema },
  'console/watch-job': { input: operations['jobs/get'].input, output: JobStateSchema },
  'console/sign-in': { input: SignInInputSchema, output: ConsoleStatusSchema },
  'console/cancel-sign-in': { input: z.strictObject({}), output: ConsoleStatusSchema },
  'console/use-token': { input: UseTokenInputSchema, output: ConsoleStatusSchema },
  'console/sign-out': { input: z.strictObject({}), output: ConsoleStatusSchema },
  'console/runs': { input: z.strictObject({}), output: z.object({ runs: z.array(SavedRunSummarySchema) }) },
  'console/run': { input: z.strictObject({ runId: RunIdSchema }), output: SavedRunSchema },
  'console/delete-run': {
    input: z.strictObject({ runId: RunIdSchema }),
    output: z.object({ runs: z.array(SavedRunSummarySchema) }),
  },
  'console/save-labels': { input: SaveLabelsInputSchema, output: SavedRunSummarySchema },
  'console/start-task': {
    input: z.strictObject({ operation: RunOperationSchema, input: z.unknown() }),
    output: RunStateSchema,
  },
  'console/cancel-task': {
    input: z.strictObject({ runId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) }),
    output: RunStateSchema,
  },
  'console/tasks': { input: z.strictObject({}), output: z.object({ rows: z.array(RunStateSchema) }) },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type ConsoleOperations = typeof consoleOperations;
export type ConsoleOperationName = keyof ConsoleOperations;
export const CONSOLE_OPERATION_NAMES = Object.keys(consoleOperations) as ConsoleOperationName[];

export const consoleEvents = {
  'job/updated': JobStateSchema,
  'sandbox/progress': SandboxProgressSchema,
  'connection/changed': ConsoleStatusSchema,
  /** A task's status or progress changed; at its end, a completed task carries its output. */
  'task/updated': RunStateSchema,
} as const satisfies Record<string, z.ZodType>;

export type ConsoleEvents = typeof consoleEvents;
export type ConsoleEventName = keyof ConsoleEvents;
export type ConsoleEvent<E extends ConsoleEventName> = z.output<ConsoleEvents[E]>;
export const CONSOLE_EVENT_NAMES = Object.keys(consoleEvents) as ConsoleEventName[];

/** Everything the renderer may ask for: the engine operations and the console's own. */
export type AnyOperationName = OperationName | ConsoleOperationName;
export type AnyInput<K extends AnyOperationName> = K extends OperationName
  ? OperationInput<K>
  : K extends ConsoleOperationName
    ? z.input<ConsoleOperations[K]['input']>
    : never;
export type AnyOutput<K extends AnyOperationName> = K extends OperationName
  ? OperationOutput<K>
  : K extends ConsoleOperationName
    ? z.output<ConsoleOperations[K]['output']>
    : never;

export const ALL_OPERATION_NAMES: readonly AnyOperationName[] = [...ENGINE_OPERATION_NAMES, ...CONSOLE_OPERATION_NAMES];

export function isConsoleOperation(name: string): name is ConsoleOperationName {
  return Object.hasOwn(consoleOperations, name);
}

export function isEngineOperation(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

/** The input schema of any operation the renderer may ask for; undefined for an unknown name. */
export function inputSchemaOf(name: string): z.ZodType | undefined {
  if (isConsoleOperation(name)) return consoleOperations[name].input;
  if (isEngineOperation(name)) return operations[name].input;
  return undefined;
}

/** What crosses a transport (IPC, HTTP): a value or an error as data, never a thrown object. */
export type Reply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorData };
