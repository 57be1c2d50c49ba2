import { useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router';
import { featurePages, pages } from '#app/pages.ts';

const noSubscription = () => () => undefined;

export function NotFoundContent() {
  const { pathname } = useLocation();
  // Every unknown path shares one stored 404 page (decision 120): the path shows once React runs.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <section className="container section">
      <p className="eyebrow">Error 404</p>
      <h1>Page not found</h1>
      <p className="lead">
        There is no page at {hydrated ? <code>{pathname}</code> : 'this address'}. It may have
        moved, or the link may be mistyped.
      </p>
      <p>These pages might be what you were looking for:</p>
      <ul>
        <li>
          <Link to={pages.home.path}>Home</Link>
        </li>
        <li>
          <Link to={pages.download.path}>Download the CLI</Link>
        </li>
        <li>
          <Link to={pages.pricing.path}>Pricing</Link>
        </li>
        {featurePages.map((page) => (
          <li key={page.path}>
            <Link to={page.path}>{page.title}</Link>
          </li>
        ))}
        <li>
          <Link to={pages.support.path}>Support</Link>
        </li>
      </ul>
    </section>
  );
}
