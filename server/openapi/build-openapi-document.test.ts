import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineApiDocs } from '../platform/api-doc/api-doc.ts';
import type { RouteAuth } from '../platform/route-auth/route-auth.ts';
import {
  buildOpenApiDocument,
  toOpenApiPath,
  type SecurityRequirement,
} from './build-openapi-document.ts';

const Inner = z.object({ n: z.number().default(1) }).meta({ id: 'BuilderTestInner' });
const Outer = z.object({ inner: Inner, s: z.string() }).meta({ id: 'BuilderTestOuter' });
const Plain = z.strictObject({ s: z.string() }).meta({ id: 'BuilderTestPlain' });

const options = {
  info: { title: 'Test', version: '1', description: 'Test API' },
  accountBaseUrl: 'https://account.example',
  siteBaseUrl: 'https://site.example',
  tagDescriptions: { Things: 'Things.', Site: 'The site.' },
  securitySchemes: {
    csrf: { type: 'apiKey', in: 'header', name: 'X-Csrf' },
    key: { type: 'http', scheme: 'bearer' },
    session: { type: 'apiKey', in: 'cookie', name: 'session' },
    unused: { type: 'apiKey', in: 'header', name: 'X-Unused' },
  },
  securityOf: (auth: RouteAuth): SecurityRequirement[] => {
    if (typeof auth === 'object') return [{ session: [auth.permission], csrf: [] }];
    if (auth === 'csrf') return [{ csrf: [] }];
    if (auth === 'accessToken') return [{}, { key: [] }];
    return [];
  },
};

const docs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/things/:id',
    operationId: 'createThing',
    auth: 'csrf',
    tag: 'Things',
    summary: 'Create',
    request: {
      body: Outer,
      pathParams: z.object({ id: z.string() }),
      query: z.object({ q: z.string().optional().describe('A filter') }),
    },
    responses: { 200: { description: 'ok', schema: Outer } },
  },
  {
    method: 'post',
    path: '/account/v1/machine',
    operationId: 'machine',
    auth: 'licenceKey',
    tag: 'Things',
    summary: 'Machine call',
    request: { body: Plain },
    responses: { 200: { description: 'ok', schema: Plain } },
  },
  {
    method: 'post',
    path: '/api/form',
    operationId: 'form',
    auth: 'csrf',
    tag: 'Site',
    origin: 'site',
    summary: 'Site form',
    responses: { 204: { description: 'sent' } },
  },
]);

const schemeNames = (built: Record<string, unknown>) =>
  Object.keys(
    z.object({ securitySchemes: z.record(z.string(), z.unknown()) }).parse(built.components)
      .securitySchemes,
  );

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument(docs, options);
  const paths = z
    .record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())))
    .parse(document.paths);
  const schemas = z
    .object({ schemas: z.record(z.string(), z.unknown()) })
    .parse(document.components).schemas;

  it('converts Hono path parameters', () => {
    expect(toOpenApiPath('/a/:id/b/:name{[a-z]+}')).toBe('/a/{id}/b/{name}');
    expect(Object.keys(paths)).toContain('/account/v1/things/{id}');
  });

  it('lists path and query parameters with their descriptions', () => {
    expect(paths['/account/v1/things/{id}']?.post?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      {
        name: 'q',
        in: 'query',
        required: false,
        description: 'A filter',
        schema: { type: 'string' },
      },
    ]);
  });

  it('moves schemas with an id into components, with an Input twin where input and output differ', () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'BuilderTestInner',
        'BuilderTestInnerInput',
        'BuilderTestOuter',
        'BuilderTestOuterInput',
        'BuilderTestPlain',
      ]),
    );
    expect(Object.keys(schemas)).not.toContain('BuilderTestPlainInput');
    expect(schemas.BuilderTestOuterInput).toMatchObject({
      properties: { inner: { $ref: '#/components/schemas/BuilderTestInnerInput' } },
    });
    expect(schemas.BuilderTestOuter).toMatchObject({
      properties: { inner: { $ref: '#/components/schemas/BuilderTestInner' } },
    });
  });

  it('documents the CSRF answer only where the check applies, and the 500 everywhere', () => {
    const thing = z.object({ responses: z.record(z.string(), z.unknown()) });
    expect(Object.keys(thing.parse(paths['/account/v1/things/{id}']?.post).responses)).toEqual([
      '200',
      '403',
      '500',
    ]);
    expect(Object.keys(thing.parse(paths['/account/v1/machine']?.post).responses)).toEqual([
      '200',
      '500',
    ]);
  });

  it('states every operation’s security from its declared auth, and lists the schemes used', () => {
    expect(paths['/account/v1/things/{id}']?.post?.security).toEqual([{ csrf: [] }]);
    expect(paths['/account/v1/machine']?.post?.security).toEqual([]);
    const withToken = buildOpenApiDocument(
      defineApiDocs([
        {
          method: 'post',
          path: '/account/v1/machine',
          operationId: 'tokenCall',
          auth: 'accessToken',
          tag: 'Things',
          summary: 'With a token',
          responses: { 204: { description: 'done' } },
        },
      ]),
      options,
    );
    expect(withToken.paths).toMatchObject({
      '/account/v1/machine': { post: { security: [{}, { key: [] }] } },
    });
    // Only the schemes some operation names: `unused` and `session` are left out.
    expect(schemeNames(withToken)).toEqual(['key']);
    expect(schemeNames(document)).toEqual(['csrf']);
  });

  it('documents a console route’s 401, its CSRF answer and the permission it needs', () => {
    const consoleDocument = buildOpenApiDocument(
      defineApiDocs([
        {
          method: 'post',
          path: '/console/licences/:id/suspend',
          operationId: 'suspendLicence',
          auth: { permission: 'licence.suspend' },
          tag: 'Things',
          summary: 'Suspend',
          responses: { 204: { description: 'done' } },
        },
      ]),
      options,
    );
    const operation = z
      .object({ responses: z.record(z.string(), z.unknown()), security: z.unknown() })
      .parse(
        z.record(z.string(), z.record(z.string(), z.unknown())).parse(consoleDocument.paths)[
          '/console/licences/{id}/suspend'
        ]?.post,
      );
    expect(Object.keys(operation.responses)).toEqual(['204', '401', '403', '500']);
    expect(operation.responses['401']).toMatchObject({
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ConsoleSessionRequiredError' },
        },
      },
    });
    expect(operation.security).toEqual([{ session: ['licence.suspend'], csrf: [] }]);
  });

  it('refuses an operation whose security names a scheme nobody defined', () => {
    expect(() =>
      buildOpenApiDocument(docs, {
        ...options,
        securitySchemes: {},
      }),
    ).toThrow(/security scheme csrf is not defined/);
  });

  it('describes every tag, in the order given, and refuses one without a description', () => {
    expect(document.tags).toEqual([
      { name: 'Things', description: 'Things.' },
      { name: 'Site', description: 'The site.' },
    ]);
    expect(() => buildOpenApiDocument(docs, { ...options, tagDescriptions: {} })).toThrow(
      /tag (Site|Things) has no description/,
    );
  });

  it('points site endpoints at the site origin', () => {
    expect(paths['/api/form']?.post?.servers).toEqual([{ url: 'https://site.example' }]);
    expect(document.servers).toEqual([{ url: 'https://account.example' }]);
  });

  it('refuses duplicate operations', () => {
    const first = docs[0];
    if (!first) throw new Error('no docs');
    expect(() => buildOpenApiDocument([first, first], options)).toThrow(/Duplicate operationId/);
    expect(() =>
      buildOpenApiDocument([first, { ...first, operationId: 'other' }], options),
    ).toThrow(/documented twice/);
  });
});
