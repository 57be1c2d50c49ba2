import { z } from 'zod';
import * as zm from 'zod/mini';

const licenseKeyField = zm
  .string({ error: 'licenseKey is required.' })
  .check(
    zm.trim(),
    zm.minLength(1, 'licenseKey is required.'),
    zm.maxLength(200, 'licenseKey is too long.'),
    zm.describe('The licence key the token stands in for (authenticates the request).'),
  );

export const createAccessTokenRequestSchema = zm
  .strictObject({
    licenseKey: licenseKeyField,
    name: zm
      .string({ error: 'name is required.' })
      .check(
        zm.trim(),
        zm.minLength(1, 'name is required.'),
        zm.maxLength(100, 'name can be at most 100 characters long.'),
        zm.regex(/^[^\p{Cc}]*$/u, 'name must be on one line.'),
        zm.describe('What the token is for, e.g. "GitHub Actions".'),
      ),
  })
  .register(zm.globalRegistry, { id: 'CreateAccessTokenRequest' });

export const listAccessTokensRequestSchema = zm
  .strictObject({ licenseKey: licenseKeyField })
  .register(zm.globalRegistry, { id: 'ListAccessTokensRequest' });

export const revokeAccessTokenRequestSchema = zm
  .union([
    zm.strictObject({
      token: zm
        .string({ error: 'token must be text.' })
        .check(zm.trim(), zm.describe('The token to revoke; whoever holds it may revoke it.')),
    }),
    zm.strictObject({
      licenseKey: licenseKeyField,
      id: zm.uuid('id must be the id of a token (a UUID).'),
    }),
  ])
  .register(zm.globalRegistry, { id: 'RevokeAccessTokenRequest' });

export const accessTokenInfoSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    hint: z.string().describe('The last four characters of the token.'),
    createdVia: z.enum(['self-service', 'operator']),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().describe('Last validation with it (to the hour).'),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AccessToken' });

export const createdAccessTokenSchema = accessTokenInfoSchema
  .extend({
    token: z
      .string()
      .describe('The token. It is shown this once: store it as a secret of your CI system.'),
  })
  .meta({ id: 'CreatedAccessToken' });

export const accessTokenListSchema = z
  .object({ tokens: z.array(accessTokenInfoSchema) })
  .meta({ id: 'AccessTokenList' });
