import { z } from 'zod';
import { CSRF_TOKEN_PATH } from '#shared/contracts/csrf.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';

export const csrfApiDocs = defineApiDocs([
  {
    method: 'get',
    path: CSRF_TOKEN_PATH,
    operationId: 'getCsrfToken',
    tag: 'Site',
    origin: 'site',
    summary: 'The CSRF token for unsafe requests from the site',
    description:
      'Sets the `XSRF-TOKEN` cookie when the browser has none and answers its value; unsafe requests ' +
      'echo it in the `X-XSRF-TOKEN` header. Pages never set the cookie, so their HTML can be cached ' +
      'and shared; the site calls this before its first form submission.',
    responses: {
      200: {
        description: 'The token (also in the `XSRF-TOKEN` cookie); never cached.',
        schema: z.object({ token: z.string() }),
        headers: {
          'Set-Cookie': {
            description: '`XSRF-TOKEN=…; Path=/; SameSite=Strict` when the browser had none.',
            schema: z.string(),
          },
        },
      },
    },
  },
]);
