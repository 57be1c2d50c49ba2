import { describe, expect, it } from 'vitest';
import { defineApiDocs } from '../api-doc/api-doc.ts';
import type { RouteAuth } from '../route-auth/route-auth.ts';
import { csrfExemptionsOf } from './csrf-exemptions.ts';

const route = (method: 'get' | 'post' | 'delete', path: string, auth: RouteAuth) => ({
  method,
  path,
  auth,
  operationId: `${method}${path}`,
  tag: 'Test',
  summary: 'Test',
  responses: { 204: { description: 'Nothing.' } },
});

const isExempt = csrfExemptionsOf(
  defineApiDocs([
    route('post', '/hooks/stripe', 'stripeSignature'),
    route('post', '/cli/validate', 'accessToken'),
    route('post', '/cli/tokens/:id/revoke', 'licenceKey'),
    route('post', '/machines/ping', 'public'),
    route('post', '/forms/contact', 'csrf'),
    route('delete', '/console/operators/:id', { permission: 'operator.manage' }),
    route('post', '/both/:name', 'licenceKey'),
    route('post', '/both/contact', 'csrf'),
  ]),
);

describe('csrfExemptionsOf', () => {
  it('lets through the routes that declare a credential of their own, or none', () => {
    expect(isExempt('POST', '/hooks/stripe')).toBe(true);
    expect(isExempt('POST', '/cli/validate')).toBe(true);
    expect(isExempt('post', '/cli/tokens/abc/revoke')).toBe(true);
    expect(isExempt('POST', '/machines/ping')).toBe(true);
  });

  it('checks csrf and console routes', () => {
    expect(isExempt('POST', '/forms/contact')).toBe(false);
    expect(isExempt('DELETE', '/console/operators/1')).toBe(false);
  });

  it('checks what no definition declares: other methods, other paths, neighbours of exempt ones', () => {
    expect(isExempt('PUT', '/hooks/stripe')).toBe(false);
    expect(isExempt('POST', '/hooks/paypal')).toBe(false);
    expect(isExempt('POST', '/hooks/stripe/')).toBe(false);
    expect(isExempt('POST', '/cli/tokens/abc/revoke/more')).toBe(false);
    expect(isExempt('POST', '/')).toBe(false);
  });

  it('checks a request that two definitions could take when one of them wants the check', () => {
    expect(isExempt('POST', '/both/other')).toBe(true);
    expect(isExempt('POST', '/both/contact')).toBe(false);
  });
});
