import type { Route } from './+types/robots-txt.ts';
import { siteContext } from '#app/context.ts';

/**
 * Noindex pages (checkout success) are deliberately not disallowed here: a crawler must be able
 * to fetch them to see their `noindex`. The API and billing paths carry no content.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { publicBaseUrl } = context.get(siteContext);
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /account/',
    'Disallow: /api/',
    '',
    `Sitemap: ${publicBaseUrl}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  });
}
