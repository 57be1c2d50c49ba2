import type { MetaDescriptor } from 'react-router';

/** A console page's title; never indexed (the server says so too: `X-Robots-Tag`). */
export function consoleMeta(title: string): MetaDescriptor[] {
  return [
    { title: `${title} - Orgsmith console` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}
