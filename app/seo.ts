import type { MetaDescriptor } from 'react-router';
import { siteConfig } from '../shared/site-config.ts';
import type { PageInfo } from './pages.ts';

export function documentTitle(page: Pick<PageInfo, 'title' | 'documentTitle'>): string {
  return page.documentTitle ?? `${page.title} - ${siteConfig.productName}`;
}

/** Title, description, canonical link and robots for one page; `publicBaseUrl` comes from the root loader. */
export function pageMeta(
  page: PageInfo,
  publicBaseUrl: string,
  extra: MetaDescriptor[] = [],
): MetaDescriptor[] {
  const canonical = `${publicBaseUrl}${page.path === '/' ? '/' : page.path}`;
  return [
    { title: documentTitle(page) },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:title', content: documentTitle(page) },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: canonical },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: siteConfig.productName },
    ...(page.noindex ? [{ name: 'robots', content: 'noindex, nofollow' }] : []),
    ...extra,
  ];
}
