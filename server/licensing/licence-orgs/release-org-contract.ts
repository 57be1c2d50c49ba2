import { z } from 'zod';
import * as zm from 'zod/mini';
import {
  optionalLicenceKeyField,
  orgIdField,
} from '../licence-validation/licence-validation-contract.ts';

/** `POST /account/v1/licenses/release-org`: the key in the body, or an access token as bearer. */
export const releaseOrgRequestSchema = zm
  .strictObject({
    licenseKey: optionalLicenceKeyField(
      'The licence key; omit it when sending an access token as `Authorization: Bearer`.',
    ),
    orgId: orgIdField('The Salesforce org id to release (15 or 18 characters, starts with 00D).'),
  })
  .register(zm.globalRegistry, { id: 'ReleaseOrgRequest' });

export const releasedOrgSchema = z
  .object({
    orgId: z.string().describe('The org released, as 18 characters.'),
    firstSeenAt: z.string().describe('ISO 8601: when it first validated this licence.'),
    lastSeenAt: z.string().describe('ISO 8601: when it last validated this licence.'),
    releasesLeft: z
      .number()
      .int()
      .describe('How many more orgs this licence may release before releasesResetAt.'),
    releasesResetAt: z
      .string()
      .nullable()
      .describe('ISO 8601: when a release is possible again once none is left; else null.'),
  })
  .meta({ id: 'ReleasedOrg' });
