/**
 * The registry API (`/api/v1`) as data: ONE route table that the server registers its routes from, the
 * OpenAPI document is generated from and the remote client calls through. Bodies are the operations'
 * schemas (engine/contract/operations.ts); nothing here is copied by hand elsewhere. Shared by
 * main/api (the server), main/remote (the client), the console backend and the CLI.
 *
 * A route names its operation, method and path (`{name}` is a path parameter filled from the input field of
 * that name), the scope a caller's token must carry, whether the spec shows it ("Endpoints") or it is an
 * extension the console needs, where the rest of the input travels (JSON body, query string or nowhere) and
 * the success status. Adding an operation to the API is one line in HTTP_ROUTES.
 */
import { z } from 'zod';
import type { ErrorKind } from '../../engine/contract/errors.ts';
import { operations, type OperationName } from '../../engine/contract/operations.ts';

export const API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export const SCOPES = ['mpi.admin', 'mpi.operations'] as const;
export type Scope = (typeof SCOPES)[number];

export type HttpMethod = 'GET' | 'POST';
/** Where the input fields that are not path parameters travel. */
export type InputPlacement = 'body' | 'query' | 'none';

export interface HttpRoute {
  readonly operation: OperationName;
  readonly method: HttpMethod;
  /** The full path; `{jobId}` is filled from input.jobId. */
  readonly path: string;
  readonly scope: Scope;
  /** false: an endpoint of the spec; true: an extension (marked `x-extension: true` in the OpenAPI document). */
  readonly extension: boolean;
  readonly input: InputPlacement;
  readonly status: 200 | 202;
  /** A 202 answer's Location header: this operation's route, filled from the output (a started job → its GET). */
  readonly location?: OperationName;
  readonly summary: string;
}

interface RouteOptions {
  readonly status?: 200 | 202;
  readonly location?: OperationName;
}

function route(
  operation: OperationName,
  request: `${HttpMethod} /${string}`,
  scope: Scope,
  origin: 'spec' | 'extension',
  input: InputPlacement,
  summary: string,
  options: RouteOptions = {},
): HttpRoute {
  const [method, path] = request.split(' ') as [HttpMethod, string];
  return {
    operation,
    method,
    path: `${API_PREFIX}${path}`,
    scope,
    extension: origin === 'extension',
    input,
    status: options.status ?? 200,
    summary,
    ...(options.location === undefined ? {} : { location: options.location }),
  };
}

/**
 * Scopes: `mpi.admin` for every state change and for the reads that expose record-level evidence (labelled
 * pairs, field evidence of two records), like evaluation; `mpi.operations` for job and profile reads.
 */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  route('maintenance/reindex', 'POST /maintenance/reindex', 'mpi.admin', 'spec', 'body', 'Start a re-index job', {
    status: 202,
    location: 'jobs/get',
  }),
  route(
    'maintenance/reconcile',
    'POST /maintenance/reconciliation',
    'mpi.admin',
    'spec',
    'body',
    'Start a population reconciliation job',
    { status: 202, location: 'jobs/get' },
  ),
  route(
    'jobs/get',
    'GET /maintenance/jobs/{jobId}',
    'mpi.operations',
    'spec',
    'none',
    "A job's state, phases and counters",
  ),
  route(
    'jobs/cancel',
    'POST /maintenance/jobs/{jobId}/cancel',
    'mpi.admin',
    'spec',
    'none',
    'Cancel a queued or running job',
  ),
  route(
    'matching/evaluate',
    'POST /matching/evaluation',
    'mpi.admin',
    'spec',
    'body',
    'Evaluate the active matching profile against labelled pairs',
  ),
  route(
    'matching/calibrate',
    'POST /matching/calibration/fellegi-sunter',
    'mpi.admin',
    'spec',
    'body',
    'Calibrate a Fellegi-Sunter model (never activated)',
  ),
  route(
    'matching/estimate',
    'POST /matching/estimate/fellegi-sunter',
    'mpi.admin',
    'extension',
    'body',
    "Estimate a Fellegi-Sunter model from the tenant's own records, no labels (never activated)",
  ),
  route(
    'jobs/list',
    'GET /maintenance/jobs',
    'mpi.operations',
    'extension',
    'query',
    'Job history, newest first, one page at a time',
  ),
  route(
    'profile/summary',
    'GET /matching/profile/summary',
    'mpi.operations',
    'extension',
    'none',
    "The active profile's matching, comparator and score-method versions",
  ),
  route(
    'profile/get',
    'GET /matching/profile',
    'mpi.operations',
    'extension',
    'none',
    'The active matching profile (model JSON included)',
  ),
  route(
    'labels/sample',
    'GET /matching/labels/sample',
    'mpi.admin',
    'extension',
    'query',
    "Labelled pairs from a synthetic sandbox's ground truth",
  ),
  route(
    'matching/explain',
    'POST /matching/explain',
    'mpi.admin',
    'extension',
    'body',
    'Field evidence, score and decision for two source records',
  ),
  route(
    'runs/start',
    'POST /runs',
    'mpi.admin',
    'extension',
    'body',
    'Start a long assurance operation (estimate, evaluation, calibration, label sample, candidate draw) as a tracked run',
    {
      status: 202,
      location: 'runs/get',
    },
  ),
  route(
    'runs/get',
    'GET /runs/{runId}',
    'mpi.admin',
    'extension',
    'query',
    "A run's status and progress, and its output once completed; ?waitMs=N answers as soon as the run ends or after N ms (at most 20,000)",
  ),
  route('runs/cancel', 'POST /runs/{runId}/cancel', 'mpi.admin', 'extension', 'none', 'Cancel a queued or running run'),
  route(
    'reviews/list',
    'GET /review-cases',
    'mpi.admin',
    'extension',
    'query',
    "The tenant's review cases (filters: status, kind, jobId, sourceSystem, openedAfter, limitedBy, twinReason, currentOnly; sort; limit and offset), with the total that match and the source systems the tenant's cases name",
  ),
  route(
    'reviews/get',
    'GET /review-cases/{caseId}',
    'mpi.admin',
    'extension',
    'none',
    "A review case beside both identities' record references, the best-scoring record pair and its decisions",
  ),
  route(
    'reviews/decide',
    'POST /review-cases/{caseId}/decision',
    'mpi.admin',
    'extension',
    'body',
    "Record a reviewer's decision (same person, different people, unsure) with a reason; refused when the case is stale or decided; never merges",
  ),
  route(
    'reviews/labels',
    'GET /review-labels',
    'mpi.admin',
    'extension',
    'query',
    'Decided review cases as five-column TSV labels (review-queue labels: biased toward hard pairs)',
  ),
  route(
    'identities/history',
    'GET /identities/{enterpriseId}/history',
    'mpi.admin',
    'extension',
    'query',
    "An identity's history: record arrivals (how decided, score, profile version, job), updates, rebuilds, review cases and decisions; ?withValues=true adds its canonical record (each field's surviving value and the record it came from)",
  ),
  route(
    'identities/of-record',
    'POST /identities/of-record',
    'mpi.admin',
    'extension',
    'body',
    "The identity a source record is linked to (its enterprise ID and status), by the record's source system and local ID; a POST so that the local ID, which can be a medical record number, stays out of URLs and proxies' logs",
  ),
  route(
    'records/sources',
    'GET /records/sources',
    'mpi.admin',
    'extension',
    'none',
    "The source systems the tenant's records came from, each once, in ascending order (what a record's identity is looked up by, a source since dropped from the profile included)",
  ),
  route(
    'profile/preview',
    'POST /matching/profile/preview',
    'mpi.admin',
    'extension',
    'body',
    'What a candidate profile would change on the registry: links it would not make, new Certain and review pairs, the cases a reconciliation would open (a dry run; best started as a run)',
  ),
  route(
    'audit/sample',
    'POST /matching/audit/sample',
    'mpi.admin',
    'extension',
    'body',
    "A stratified sample of the registry's decisions (linked pairs; candidate pairs by score band) to label for an accuracy audit (best started as a run)",
  ),
  route(
    'audit/estimate',
    'POST /matching/audit/estimate',
    'mpi.admin',
    'extension',
    'body',
    "The registry's precision, recall and F1 of links from a labelled audit sample, with conservative 95% intervals",
  ),
  route(
    'health/series',
    'GET /health',
    'mpi.operations',
    'extension',
    'query',
    'Health figures of every ingest and finished job (records, auto-link and review rates, field completeness, durations, failures) with drift flags on the latest',
  ),
  route(
    'links/scan',
    'POST /link-quality/scan',
    'mpi.admin',
    'extension',
    'body',
    'Scan identities with two or more records for links that look wrong (read-only; best started as a run)',
  ),
  route(
    'runs/list',
    'GET /runs',
    'mpi.admin',
    'extension',
    'none',
    "The tenant's runs of the last 30 minutes, newest first (without outputs)",
  ),
];

const BY_OPERATION = new Map<OperationName, HttpRoute>(HTTP_ROUTES.map((r) => [r.operation, r]));

export function routeFor(operation: OperationName): HttpRoute | undefined {
  return BY_OPERATION.get(operation);
}

/** The spec's six endpoints: what every registry offers. */
export const SPEC_OPERATIONS: ReadonlySet<OperationName> = new Set(
  HTTP_ROUTES.filter((r) => !r.extension).map((r) => r.operation),
);

const PARAMETER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

export function pathParameters(path: string): string[] {
  return [...path.matchAll(PARAMETER)].map((m) => m[1] ?? '');
}

/** The route's path with its parameters filled from values (each percent-encoded). */
export function fillPath(path: string, values: Readonly<Record<string, unknown>>): string {
  return path.replace(PARAMETER, (_whole, name: string) => encodeURIComponent(String(values[name])));
}

export interface RouteRequest {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * How a validated input travels on a route: path parameters in the path, the rest in the body or the query
 * string (query inputs are flat: strings, numbers and booleans).
 */
export function routeRequest(route: HttpRoute, input: Readonly<Record<string, unknown>>): RouteRequest {
  const parameters = new Set(pathParameters(route.path));
  const rest = Object.fromEntries(
    Object.entries(input).filter(([key, value]) => !parameters.has(key) && value !== undefined),
  );
  const path = fillPath(route.path, input);
  switch (route.input) {
    case 'body':
      return { path, body: rest };
    case 'none':
      return { path };
    case 'query': {
      const query: Record<string, string> = {};
      for (const [key, value] of Object.entries(rest)) {
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
          throw new TypeError(`${route.operation}: query input ${key} is not a string, number or boolean`);
        }
        query[key] = String(value);
      }
      return { path, query };
    }
  }
}

const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The zod type under optional and default wrappers (zod 4 keeps it in def.innerType). */
function baseType(schema: z.ZodType): string {
  let current: z.core.$ZodType = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType };
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType !== undefined)
      current = def.innerType;
    else return def.type;
  }
}

/**
 * A query string as input for the operation's schema: numeric and boolean fields are turned back from text
 * where the text is a number or `true`/`false`; anything else is left as it came so that validation names
 * the field. Repeated parameters stay arrays (and fail validation).
 */
export function queryInput(
  operation: OperationName,
  query: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, unknown> {
  const schema = operations[operation].input as unknown as z.ZodObject;
  const shape = schema.shape as Record<string, z.ZodType>;
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const type = field === undefined ? undefined : baseType(field);
    if (typeof value === 'string' && type === 'number' && NUMBER_TEXT.test(value)) input[key] = Number(value);
    else if (typeof value === 'string' && type === 'boolean' && (value === 'true' || value === 'false'))
      input[key] = value === 'true';
    else input[key] = value;
  }
  return input;
}

const ERROR_KINDS = [
  'validation',
  'not_found',
  'conflict',
  'forbidden',
  'remote_http',
  'internal',
] as const satisfies readonly ErrorKind[];
/** Fails to compile when ErrorKind gains a kind that ERROR_KINDS lacks. */
export const EVERY_ERROR_KIND: [Exclude<ErrorKind, (typeof ERROR_KINDS)[number]>] extends [never] ? true : never = true;

/**
 * An error answer: RFC 9457 problem details (`application/problem+json`) with the engine's error kind and
 * its issues (paths and rules, never values). `operation` is present when the route's operation answered,
 * absent when no route did (an unknown path or method).
 */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  kind: z.enum(ERROR_KINDS),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
  operation: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
