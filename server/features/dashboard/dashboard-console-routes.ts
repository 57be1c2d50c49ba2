import { Hono } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import {
  consoleDeniedResponses,
  invalidRequestErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { currentMonth, readDashboard } from './dashboard.ts';

/** `YYYY-MM`, months 01–12. */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month is written YYYY-MM, for example 2026-11.');

const dashboardRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/dashboard`,
  auth: { permission: 'billing.read' },
  operationId: 'readDashboard',
  tag: 'Operator console',
  summary: "The founder's morning figures for a month and the 11 before it (decision 234)",
  request: { query: z.strictObject({ month: monthSchema.optional() }) },
  responses: {
    200: {
      description:
        'Trials and conversion, MRR and its movements per currency, paid licences, open invoices, orgs in use and licence validations per day.',
      schema: z.unknown(),
    },
    400: {
      description: 'Not a month (YYYY-MM), or one not begun.',
      schema: invalidRequestErrorSchema,
    },
    ...consoleDeniedResponses,
  },
});

/** The dashboard's one endpoint: reading only, for every role (`billing.read`). */
export const dashboardConsoleRoutes = defineRoutes([dashboardRoute], (deps: FeaturePorts) => {
  const app = new Hono<AppEnv>();
  dashboardRoute.handle(app, async (c, input) => {
    const query = input.query();
    if (!query.ok) return query.response;
    const now = deps.clock();
    const month = query.value.month ?? currentMonth(now);
    if (month > currentMonth(now)) {
      return c.json(
        { Error: 'InvalidRequest', message: `${month} has not begun: there are no figures yet.` },
        400,
      );
    }
    return c.json(await readDashboard(deps.database.db, month, now));
  });
  return app;
});
