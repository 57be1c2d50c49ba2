import type { ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from 'react-router';
import { useRouteAnalytics } from './analytics/use-route-analytics.ts';
import { scrollKeyOf } from './components/dialogs/modal-url.ts';
import { LazyCookieBanner } from './components/shell/LazyCookieBanner.tsx';
import type { Route } from './+types/root.ts';
import { siteContext } from './context.ts';
import type { RootData } from './root-data.ts';
import { SiteHeader } from './components/shell/SiteHeader.tsx';
import { SiteFooter } from './components/shell/SiteFooter.tsx';
import { ModalHost } from './components/dialogs/ModalHost.tsx';
import { NotFoundContent } from './components/shell/NotFoundContent.tsx';
import { TestModeNotice } from './components/shell/TestModeNotice.tsx';
import { navy } from '#shared/design-tokens.ts';
import './styles/global.css';

export function loader({ context }: Route.LoaderArgs): RootData {
  const site = context.get(siteContext);
  return {
    publicBaseUrl: site.publicBaseUrl,
    accountApiUrl: site.accountApiUrl,
    gaMeasurementId: site.gaMeasurementId ?? null,
    testPayments: site.testPayments,
    invoiceCurrencies: site.invoiceCurrencies,
    year: site.now.getFullYear(),
  };
}

// Nothing in the root data changes between client-side navigations.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/** Browser-only effects of every route change: analytics start-up and one page view per page. */
function RouteEffects() {
  const data = useRouteLoaderData<RootData>('root');
  useRouteAnalytics(data?.gaMeasurementId ?? null);
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={navy} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <RouteEffects />
        {/* Dialog entries share the scroll position of their page (see `scrollKeyOf`). */}
        <ScrollRestoration getKey={scrollKeyOf} />
        <Scripts />
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>('root');
  // The operator console's pages (decision 226) have their own layout, not the site's shell.
  if (useLocation().pathname.startsWith('/console')) return children;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {data?.testPayments ? <TestModeNotice /> : null}
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter year={data?.year ?? new Date().getFullYear()} />
      <LazyCookieBanner />
      <ModalHost />
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Shell>
        <title>Page Not Found - Orgsmith</title>
        <NotFoundContent />
      </Shell>
    );
  }
  return (
    <Shell>
      <title>Something went wrong - Orgsmith</title>
      <section className="container section">
        <h1>Something went wrong</h1>
        <p>
          We could not show this page. Please try again in a moment; if it keeps happening, write to
          our support.
        </p>
      </section>
    </Shell>
  );
}
