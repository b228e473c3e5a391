/**
 * The OpenAPI 3.1 document of the registry API, generated from the route table and the contract's zod
 * schemas (z.toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses): nothing is written twice. Extensions
 * (routes the spec does not show) carry `x-extension: true`; each operation names its scope in `security`
 * and `x-required-scope`, and its contract operation in `x-operation`.
 */
import { z } from 'zod';
import { operations } from '../../engine/contract/operations.ts';
import { pathParameters, ProblemSchema, PROBLEM_CONTENT_TYPE, type HttpRoute } from '../net/api-routes.ts';
import { DEFAULT_TENANT_CLAIM } from '../../engine/index.ts';
import { NicknameEntriesSchema } from '../../engine/contract/profile.ts';
import { MAX_JSON_DEPTH } from '../net/json-depth.ts';

type Json = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '400': `The body is not valid JSON, or nests more than ${String(MAX_JSON_DEPTH)} levels deep`,
  '401': 'No bearer token, or the token is invalid (WWW-Authenticate: Bearer error="invalid_token")',
  '403': 'The token lacks the scope (WWW-Authenticate: Bearer error="insufficient_scope")',
  '404': "Unknown job (another tenant's job answers the same), or the token's tenant is not registered",
  '409': 'Conflict with the current state (e.g. cancelling a finished job)',
  '413': 'The body is larger than the limit',
  '415': 'The body is not sent as application/json',
  '422': 'The input breaks the contract (issues name the fields, never values)',
  '500': 'Internal error (no details)',
  '503': "The identity provider's keys could not be fetched, or the server is shutting down",
};

/**
 * Contract schemas that read user-keyed JSON objects through a Map (a name such as `__proto__` stays data)
 * and so cannot describe themselves: their JSON shape, written once here.
 */
const DESCRIPTIONS: readonly (readonly [z.ZodType, Json])[] = [
  [NicknameEntriesSchema, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }],
];
const DESCRIBED: ReadonlyMap<unknown, Json> = new Map<unknown, Json>(DESCRIPTIONS);

/** Every schema inside the described ones (their pipes' parts), which may be unrepresentable on their own. */
function partsOf(schema: z.ZodType, into: Set<unknown>): Set<unknown> {
  into.add(schema);
  for (const value of Object.values(schema._zod.def as unknown as Record<string, unknown>)) {
    if (value instanceof z.ZodType && !into.has(value)) partsOf(value, into);
  }
  return into;
}
const DESCRIBED_PARTS: ReadonlySet<unknown> = DESCRIPTIONS.reduce(
  (parts, [schema]) => partsOf(schema, parts),
  new Set<unknown>(),
);

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  // Each schema sits inside the OpenAPI 3.1 document, whose dialect is already JSON Schema 2020-12.
  // Unrepresentable parts become {} only inside the described schemas, which override replaces whole;
  // anything else unrepresentable is an error (the OpenAPI test builds the whole document).
  let unexplained = 0;
  const generated = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const described = DESCRIBED.get(ctx.zodSchema);
      if (described !== undefined) {
        for (const key of Object.keys(ctx.jsonSchema)) Reflect.deleteProperty(ctx.jsonSchema, key);
        Object.assign(ctx.jsonSchema, described);
      } else if (
        [
          'transform',
          'map',
          'set',
          'custom',
          'function',
          'bigint',
          'symbol',
          'date',
          'undefined',
          'void',
          'nan',
        ].includes(ctx.zodSchema._zod.def.type) &&
        !DESCRIBED_PARTS.has(ctx.zodSchema)
      ) {
        unexplained++;
      }
    },
  }) as Json;
  if (unexplained > 0)
    throw new Error(
      `${String(unexplained)} part(s) of a contract schema cannot be represented in JSON Schema; describe them in DESCRIBED (main/api/openapi.ts)`,
    );
  delete generated.$schema;
  return generated;
}

function operationId(route: HttpRoute): string {
  return route.operation.replace(/[/-]([a-z])/g, (_m, c: string) => c.toUpperCase());
}

function parametersOf(route: HttpRoute, input: Json): Json[] {
  const properties = (input.properties ?? {}) as Record<string, Json>;
  const required = new Set((input.required ?? []) as string[]);
  const inPath = pathParameters(route.path);
  const parameters: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  if (route.input === 'query') {
    for (const [name, schema] of Object.entries(properties)) {
      if (!inPath.includes(name)) parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return parameters;
}

function errorStatuses(route: HttpRoute): string[] {
  const body = route.input === 'body' ? ['400', '413', '415'] : [];
  const conflict = route.method === 'POST' ? ['409'] : [];
  return [...body, '401', '403', '404', ...conflict, '422', '500', '503'].sort();
}

function operationObject(route: HttpRoute, schemas: Json): Json {
  const id = operationId(route);
  const contract = operations[route.operation];
  const input = schemaOf(contract.input, 'input');
  schemas[`${id}Output`] = schemaOf(contract.output, 'output');
  const responses: Json = {
    [String(route.status)]: {
      description: route.status === 202 ? 'Accepted: a worker runs the job; follow it at the Location' : 'OK',
      ...(route.location === undefined
        ? {}
        : { headers: { Location: { description: 'The job', schema: { type: 'string' } } } }),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${id}Output` } } },
    },
  };
  for (const status of errorStatuses(route)) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  if (route.input === 'body') schemas[`${id}Input`] = input;
  return {
    operationId: id,
    summary: route.summary,
    tags: [route.path.includes('/maintenance/') ? 'maintenance' : 'matching'],
    'x-operation': route.operation,
    'x-required-scope': route.scope,
    ...(route.extension ? { 'x-extension': true } : {}),
    security: [{ bearerAuth: [route.scope] }],
    parameters: parametersOf(route, input),
    ...(route.input === 'body'
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${id}Input` } } },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(routes: readonly HttpRoute[], tenantClaim = DEFAULT_TENANT_CLAIM): Json {
  const schemas: Json = { Problem: schemaOf(ProblemSchema, 'output') };
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operationObject(route, schemas) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Patient index maintenance and matching assurance API',
      version: '1',
      description: `Every operation acts on the tenant named by the token's \`${tenantClaim}\` claim, never on a tenant in the path or body. Operations marked \`x-extension: true\` are not in the interface specification; a registry may lack them.`,
    },
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `A JWT access token from the configured issuer, for this API's audience, with the scopes in \`scope\` or \`scp\` and the tenant in \`${tenantClaim}\`.`,
        },
      },
      schemas,
    },
  };
}
