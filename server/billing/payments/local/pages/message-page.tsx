/** @jsxImportSource hono/jsx */
import { PageLayout } from './page-layout.tsx';

export interface MessagePageView {
  title: string;
  paragraphs: string[];
  link: { href: string; label: string };
}

/** A link that is not valid (any more), or a page that cannot work without cookies. */
export function messagePage({ title, paragraphs, link }: MessagePageView) {
  return (
    <PageLayout title={title} subtitle="Billing">
      <h1>{title}</h1>
      <section class="card">
        {paragraphs.map((text) => (
          <p>{text}</p>
        ))}
        <p>
          <a class="button" href={link.href}>
            {link.label}
          </a>
        </p>
      </section>
    </PageLayout>
  );
}

/** First visit without the CSRF cookie: the response sets it, the refresh comes back with it. */
export function cookieInterstitialPage(retryUrl: string) {
  return (
    <PageLayout title="Loading" refreshTo={retryUrl}>
      <p>
        Loading… If nothing happens, <a href={retryUrl}>continue</a>.
      </p>
    </PageLayout>
  );
}
