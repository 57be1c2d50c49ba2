import type { Route } from './+types/sitemap-xml.ts';
import { siteContext } from '#app/context.ts';
import { pages } from '#app/pages.ts';

/** Every indexable page; noindex pages (checkout success) are left out. */
export function loader({ context }: Route.LoaderArgs) {
  const { publicBaseUrl } = context.get(siteContext);
  const urls = Object.values(pages)
    .filter((page) => !('noindex' in page && page.noindex))
    .map((page) => `  <url><loc>${publicBaseUrl}${page.path}</loc></url>`);
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  });
}
