import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { pickEncoding } from '../platform/http/compression.ts';
import { randomToken } from '../platform/http/random-token.ts';
import {
  contentSecurityPolicy,
  type SecurityHeaderOptions,
} from '../platform/http/security-headers.ts';
import type { AppEnv } from '../platform/http/types.ts';
import { z } from 'zod';
import {
  OPENAPI_PATH,
  API_REFERENCE_PATH,
  API_REFERENCE_SCRIPT_PATH,
  scalarDist,
} from './api-reference-paths.ts';
import { invalidRequestErrorSchema, noQueryParameters } from '../platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '../platform/api-doc/define-route.ts';

/**
 * Runs before Scalar's bundle: `<style>` elements the bundle's parts create (its theme, its toast
 * styles) get the page's nonce, as the bundle's own stylesheet does from `meta[csp-nonce]`.
 */
function styleNonceScript(nonce: string): string {
  return `(() => {
      const create = Document.prototype.createElement;
      Document.prototype.createElement = function (tag, options) {
        const element = create.call(this, tag, options);
        if (String(tag).toLowerCase() === 'style') element.nonce = '${nonce}';
        return element;
      };
    })();`;
}

interface ScriptBytes {
  identity: Buffer;
  gzip: Buffer;
}

const getApiReferenceRoute = defineRoute({
  method: 'get',
  path: API_REFERENCE_PATH,
  auth: 'public',
  operationId: 'getApiReference',
  tag: 'Reference',
  summary: 'This document as an interactive reference (Scalar)',
  description:
    'An HTML page that loads Scalar’s bundle from this origin; its CSP allows inline code only by a per-request nonce.',
  responses: {
    200: { description: 'The page.', contentType: 'text/html', schema: z.string() },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

const getApiReferenceScriptRoute = defineRoute({
  method: 'get',
  path: API_REFERENCE_SCRIPT_PATH,
  auth: 'public',
  operationId: 'getApiReferenceScript',
  tag: 'Reference',
  summary: 'Scalar’s browser bundle for the reference page',
  description: 'Named by its version, so it is cached for a year.',
  responses: {
    200: { description: 'The script.', contentType: 'text/javascript', schema: z.string() },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

/**
 * The interactive API reference: Scalar's page over `openapi.json`, with Scalar's single-file
 * bundle served from our origin (decision 134). The page's inline script and the stylesheet the
 * bundle injects carry a per-request nonce, so its CSP widens nothing else: no `'unsafe-inline'`,
 * no other origin.
 */
export const apiReferenceRoutes = defineRoutes(
  [getApiReferenceRoute, getApiReferenceScriptRoute],
  (security: SecurityHeaderOptions) => {
    const app = new Hono<AppEnv>();
    let script: ScriptBytes | undefined;

    // Scalar's handler takes Hono's default environment: the page is a sub-app of its own.
    const page = new Hono();
    getApiReferenceRoute.handle(page, noQueryParameters, async (c, _input, next) => {
      const nonce = randomToken(18, 'base64');
      const nonceSource = `'nonce-${nonce}'`;
      const policy = contentSecurityPolicy(security, {
        scripts: [nonceSource],
        styles: [nonceSource],
      });
      // Scalar writes style attributes (code blocks' line counts, a scrollbar probe) that no nonce
      // can cover. They run no code and every source a style could load from stays 'self'.
      c.header('Content-Security-Policy', `${policy}; style-src-attr 'unsafe-inline'`);
      // A nonce is good for one answer only.
      c.header('Cache-Control', 'no-store');
      // Scalar's renderer loads on the page's first request, not with every instance (decision 135).
      const { Scalar } = await import('@scalar/hono-api-reference');
      const render = Scalar({
        url: OPENAPI_PATH,
        cdn: API_REFERENCE_SCRIPT_PATH,
        nonce,
        pageTitle: 'Orgsmith API reference',
        // The site's icon, so the browser asks for no /favicon.ico.
        favicon: '/favicon.svg',
        // Fonts, telemetry and the request proxy would be other origins; the CSP allows none.
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
        // Scalar's AI agent and MCP offers talk to Scalar's servers.
        agent: { disabled: true },
        mcp: { disabled: true },
      });
      const rendered = await render(c, next);
      if (!rendered) throw new Error('Scalar rendered no page');
      const html = (await rendered.text()).replace(
        '<head>',
        `<head>\n    <script nonce="${nonce}">${styleNonceScript(nonce)}</script>`,
      );
      return c.html(html, 200);
    });
    app.route('/', page);

    getApiReferenceScriptRoute.handle(app, noQueryParameters, (c) => {
      if (!script) {
        const identity = readFileSync(join(scalarDist, 'browser', 'standalone.js'));
        script = { identity, gzip: gzipSync(identity, { level: 9 }) };
      }
      const encoding = pickEncoding(c.req.header('accept-encoding'), ['gzip'] as const);
      const body = encoding ? script.gzip : script.identity;
      const headers: Record<string, string> = {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Content-Length': String(body.byteLength),
        'Cache-Control': 'public, max-age=31536000, immutable',
        Vary: 'Accept-Encoding',
      };
      if (encoding) headers['Content-Encoding'] = encoding;
      return c.body(new Uint8Array(body), 200, headers);
    });
    return app;
  },
);
