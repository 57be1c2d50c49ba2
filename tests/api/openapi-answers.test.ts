import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { DocumentedAnswers } from '../support/documented-answers.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const json = (value: unknown, status = 200, contentType = 'application/json') =>
  new Response(JSON.stringify(value), { status, headers: { 'Content-Type': contentType } });
const url = (path: string) => new URL(path, 'http://localhost');

describe('answers checked against the OpenAPI document', () => {
  const answers = new DocumentedAnswers();

  it('accepts a documented answer and ignores undocumented paths', async () => {
    const keySet = { keys: [] };
    const keySetUrl = url('/account/v1/.well-known/jwks.json');
    expect(await answers.problemWith('GET', keySetUrl, json(keySet))).toBeUndefined();
    expect(await answers.problemWith('GET', url('/pricing'), json({ any: 1 }))).toBeUndefined();
  });

  it('refuses a body that breaks the schema, an undocumented status or content type', async () => {
    const validate = url('/account/v1/licenses/validate');
    expect(await answers.problemWith('POST', validate, json({ valid: 'yes' }))).toMatch(
      /does not match the documented schema/,
    );
    expect(await answers.problemWith('POST', validate, json({}, 418))).toMatch(
      /documents no 418 answer/,
    );
    expect(await answers.problemWith('POST', validate, json({}, 200, 'text/plain'))).toMatch(
      /content type text\/plain is not documented/,
    );
  });

  it('has CLI flow examples, each valid by its own schema', () => {
    const examples = answers.examples();
    expect(examples.map((example) => example.name)).toEqual(
      expect.arrayContaining([
        'POST /account/v1/licenses/validate request application/json licenceKey',
        'POST /account/v1/licenses/validate 200 application/json valid',
        'GET /account/v1/.well-known/jwks.json 200 application/json keySet',
        'POST /account/v1/access-tokens 201 application/json ci',
        'POST /account/v1/access-tokens/list 200 application/json one',
        'POST /account/v1/access-tokens/revoke request application/json byId',
      ]),
    );
    expect(examples.filter((example) => example.problem !== undefined)).toEqual([]);
  });
});

describe.each(databaseTargets)('error bodies with issues on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  // createTestApp checks every answer against the document, so these fail when ErrorBody forbids issues.
  it('documents the issues of a refused trial request', async () => {
    const res = await t.app.request('/account/v1/licenses/trial?emailAddress=no-at-sign', {
      method: 'POST',
      headers: csrfHeaders(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Error: 'InvalidRequest', issues: expect.any(Array) });
  });

  it('documents the issues of a refused checkout request', async () => {
    const res = await t.app.request('/account/v1/checkout', {
      method: 'POST',
      headers: { ...csrfHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ edition: 'Nope' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Error: 'InvalidRequest', issues: expect.any(Array) });
  });
});
