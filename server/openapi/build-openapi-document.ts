import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type {
  AnySchema,
  ApiOperationDoc,
  ApiResponseDoc,
  ObjectSchema,
} from '../platform/api-doc/api-doc.ts';
import {
  consoleSessionErrorSchema,
  csrfErrorSchema,
  internalErrorSchema,
} from '../platform/api-doc/common-errors.ts';
import { checksCsrf, type RouteAuth } from '../platform/route-auth/route-auth.ts';

type JsonObject = Record<string, unknown>;
type Io = 'input' | 'output';

/** One way to satisfy an operation: scheme names, each with its scopes or roles. */
export type SecurityRequirement = Record<string, string[]>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

export interface BuildOpenApiOptions {
  info: OpenApiInfo;
  /**
   * One line per tag the docs use, shown as the heading of its group; the reference lists the
   * groups in this order, so the reader's first task comes first.
   */
  tagDescriptions: Record<string, string>;
  /** Base URL of the account service as clients call it. */
  accountBaseUrl: string;
  /** Origin of the website (for endpoints the site serves itself, e.g. the contact form). */
  siteBaseUrl: string;
  /** Every scheme `securityOf` may name; the document lists those its operations use. */
  securitySchemes: Record<string, JsonObject>;
  /**
   * An operation's `security` from its declared `auth` (decision 225); `[]` says it is public.
   * The CSRF check's 403 and the console's 401 answers are documented from `auth` too.
   */
  securityOf: (auth: RouteAuth) => SecurityRequirement[];
}

/** Hono's `:name` parameters become OpenAPI's `{name}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
}

const PLACEHOLDER = '#/$io/';

/**
 * Converts zod schemas to JSON Schema 2020-12 (OpenAPI 3.1's dialect), moving every schema that
 * carries a `.meta({ id })` into `components.schemas` so shared shapes (error bodies, the licence
 * summary) appear once and are referenced. Requests are converted as zod inputs and answers as
 * outputs; an id whose input shape differs from its output shape gets a `<id>Input` twin.
 */
class SchemaCollector {
  private readonly defs: Record<Io, Map<string, JsonObject>> = {
    input: new Map(),
    output: new Map(),
  };

  convert(schema: AnySchema, io: Io): JsonObject {
    const converted: JsonObject = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    });
    const toPlaceholder = (ref: string) => `${PLACEHOLDER}${io}/${ref.slice('#/$defs/'.length)}`;
    const defs = isObject(converted.$defs) ? converted.$defs : {};
    for (const [id, def] of Object.entries(defs)) {
      if (!isObject(def)) continue;
      const stored = rewriteRefs(def, '#/$defs/', toPlaceholder);
      const known = this.defs[io].get(id);
      if (known && !isDeepStrictEqual(known, stored)) {
        throw new Error(`Two different schemas use the id ${id}`);
      }
      this.defs[io].set(id, stored);
    }
    const root = { ...converted };
    delete root.$defs;
    delete root.$schema;
    return rewriteRefs(root, '#/$defs/', toPlaceholder);
  }

  /** Names every definition and resolves the placeholder references in `value` and the components. */
  finish<T>(value: T): { value: T; components: Record<string, JsonObject> } {
    const distinct = this.inputsDifferingFromOutputs();
    const nameOf = (io: Io, id: string) => (io === 'input' && distinct.has(id) ? `${id}Input` : id);
    const resolve = (ref: string) => {
      const [io, id] = ref.slice(PLACEHOLDER.length).split('/');
      return `#/components/schemas/${nameOf(io === 'input' ? 'input' : 'output', id ?? '')}`;
    };
    const components: Record<string, JsonObject> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of this.defs[io]) {
        const name = nameOf(io, id);
        components[name] ??= rewriteRefs(def, PLACEHOLDER, resolve);
      }
    }
    return { value: rewriteRefs(value, PLACEHOLDER, resolve), components };
  }

  /** Input definitions that differ from the output of the same id, directly or through a reference. */
  private inputsDifferingFromOutputs(): Set<string> {
    const sameIo = (ref: string) => `#/${ref.slice(PLACEHOLDER.length).split('/')[1] ?? ''}`;
    const distinct = new Set<string>();
    for (const [id, def] of this.defs.input) {
      const output = this.defs.output.get(id);
      const shape = rewriteRefs(def, PLACEHOLDER, sameIo);
      if (output && !isDeepStrictEqual(shape, rewriteRefs(output, PLACEHOLDER, sameIo))) {
        distinct.add(id);
      }
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [id, def] of this.defs.input) {
        if (distinct.has(id) || !this.defs.output.has(id)) continue;
        if (referencedIds(def).some((ref) => distinct.has(ref))) {
          distinct.add(id);
          changed = true;
        }
      }
    }
    return distinct;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function referencedIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' && item.startsWith(PLACEHOLDER)
      ? [item.slice(PLACEHOLDER.length).split('/')[1] ?? '']
      : referencedIds(item),
  );
}

/** Rewrites every `$ref` that starts with `prefix`. */
function rewriteRefs<T>(value: T, prefix: string, rename: (ref: string) => string): T;
function rewriteRefs(value: unknown, prefix: string, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, prefix, rename));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' && item.startsWith(prefix)
        ? rename(item)
        : rewriteRefs(item, prefix, rename),
    ]),
  );
}

function parametersOf(
  schema: ObjectSchema | undefined,
  location: 'query' | 'path' | 'header',
  collector: SchemaCollector,
): JsonObject[] {
  if (!schema) return [];
  const converted = collector.convert(schema, 'input');
  const properties = isObject(converted.properties) ? converted.properties : {};
  const required = new Set(Array.isArray(converted.required) ? converted.required : []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = isObject(property) ? property : {};
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

function responseOf(response: ApiResponseDoc, collector: SchemaCollector): JsonObject {
  const result: JsonObject = { description: response.description };
  if (response.headers) {
    result.headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, header]) => [
        name,
        { description: header.description, schema: collector.convert(header.schema, 'output') },
      ]),
    );
  }
  if (response.schema) {
    result.content = {
      [response.contentType ?? 'application/json']: {
        schema: collector.convert(response.schema, 'output'),
        ...(response.examples ? { examples: response.examples } : {}),
      },
    };
  }
  return result;
}

function operationOf(
  doc: ApiOperationDoc,
  options: BuildOpenApiOptions,
  collector: SchemaCollector,
): JsonObject {
  const responses: Record<number, ApiResponseDoc> = { ...doc.responses };
  if (doc.method !== 'get' && checksCsrf(doc.auth) && !responses[403]) {
    responses[403] = { description: 'Missing or wrong CSRF token.', schema: csrfErrorSchema };
  }
  if (typeof doc.auth === 'object') {
    responses[401] ??= {
      description: 'ConsoleSessionRequired: no operator console session.',
      schema: consoleSessionErrorSchema,
    };
  }
  responses[500] ??= { description: 'Unexpected server error.', schema: internalErrorSchema };
  const request = doc.request ?? {};
  const operation: JsonObject = {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    parameters: [
      ...parametersOf(request.pathParams, 'path', collector),
      ...parametersOf(request.query, 'query', collector),
      ...parametersOf(request.headers, 'header', collector),
    ],
    responses: Object.fromEntries(
      Object.entries(responses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, response]) => [status, responseOf(response, collector)]),
    ),
  };
  if (request.body) {
    operation.requestBody = {
      required: request.bodyRequired ?? true,
      content: {
        [request.bodyContentType ?? 'application/json']: {
          schema: collector.convert(request.body, 'input'),
          ...(request.bodyExamples ? { examples: request.bodyExamples } : {}),
        },
      },
    };
  }
  // Stated for every operation: `[]` says public rather than leaving it unstated.
  operation.security = options.securityOf(doc.auth);
  if (doc.origin === 'site') operation.servers = [{ url: options.siteBaseUrl }];
  return operation;
}

/** The tags the docs use, in the order their descriptions are given. */
function tagsInOrder(
  docs: readonly ApiOperationDoc[],
  descriptions: Record<string, string>,
): Array<{ name: string; description: string }> {
  const used = new Set(docs.map((doc) => doc.tag));
  for (const name of used) {
    if (!descriptions[name]) throw new Error(`The tag ${name} has no description`);
  }
  return Object.entries(descriptions)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
}

/** Builds the OpenAPI 3.1 document of the given endpoints. */
export function buildOpenApiDocument(
  docs: readonly ApiOperationDoc[],
  options: BuildOpenApiOptions,
): JsonObject {
  const collector = new SchemaCollector();
  const paths: Record<string, Record<string, JsonObject>> = {};
  const operationIds = new Set<string>();
  for (const doc of docs) {
    if (operationIds.has(doc.operationId)) {
      throw new Error(`Duplicate operationId ${doc.operationId}`);
    }
    operationIds.add(doc.operationId);
    const path = toOpenApiPath(doc.path);
    const item = (paths[path] ??= {});
    if (item[doc.method])
      throw new Error(`${doc.method.toUpperCase()} ${path} is documented twice`);
    item[doc.method] = operationOf(doc, options, collector);
  }
  const { value: resolvedPaths, components } = collector.finish(paths);
  const securitySchemes = usedSecuritySchemes(docs, options);
  return {
    openapi: '3.1.1',
    info: options.info,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: options.accountBaseUrl }],
    tags: tagsInOrder(docs, options.tagDescriptions),
    paths: sortedByKey(resolvedPaths),
    components: {
      schemas: sortedByKey(components),
      securitySchemes,
    },
  };
}

/** The schemes the operations name, in the order given; one nobody defined is an error. */
function usedSecuritySchemes(
  docs: readonly ApiOperationDoc[],
  options: BuildOpenApiOptions,
): Record<string, JsonObject> {
  const used = new Set(
    docs.flatMap((doc) => options.securityOf(doc.auth).flatMap((option) => Object.keys(option))),
  );
  for (const name of used) {
    if (!options.securitySchemes[name])
      throw new Error(`The security scheme ${name} is not defined`);
  }
  return Object.fromEntries(
    Object.entries(options.securitySchemes).filter(([name]) => used.has(name)),
  );
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
