import { describe, expect, it } from 'vitest';
import {
  checksCsrf,
  describeRouteAuth,
  routeAuthSchema,
  unreviewedPublicWrites,
  type RouteAuth,
} from './route-auth.ts';

const kinds: RouteAuth[] = [
  'public',
  'csrf',
  'accessToken',
  'licenceKey',
  'stripeSignature',
  { permission: 'licence.suspend' },
];

describe('route auth', () => {
  it('accepts every kind at run time and refuses anything else', () => {
    for (const auth of kinds) expect(routeAuthSchema.safeParse(auth).success).toBe(true);
    for (const wrong of [undefined, '', 'cookie', {}, { permission: '' }, { permission: 'x' }]) {
      expect(routeAuthSchema.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
    }
    expect(
      routeAuthSchema.safeParse({ permission: 'licence.suspend', role: 'owner' }).success,
    ).toBe(false);
  });

  it('checks the CSRF token where a browser cookie is the credential', () => {
    expect(kinds.filter(checksCsrf)).toEqual(['csrf', { permission: 'licence.suspend' }]);
    expect(kinds.map(describeRouteAuth)).toContain('permission licence.suspend');
  });

  it('names the public writes nobody reviewed', () => {
    const routes = [
      { method: 'get', path: '/r', operationId: 'read', auth: 'public' },
      { method: 'post', path: '/w', operationId: 'write', auth: 'public' },
      { method: 'post', path: '/reviewed', operationId: 'reviewed', auth: 'public' },
      { method: 'delete', path: '/blank', operationId: 'blank', auth: 'public' },
      { method: 'post', path: '/form', operationId: 'form', auth: 'csrf' },
    ] satisfies Array<{ method: string; path: string; operationId: string; auth: RouteAuth }>;
    expect(
      unreviewedPublicWrites(routes, { reviewed: 'Verifies its own signature.', blank: ' ' }),
    ).toEqual(['POST /w (write)', 'DELETE /blank (blank)']);
  });
});
