import { NavLink, Outlet, redirect, useRouteLoaderData } from 'react-router';
import { useState } from 'react';
import { siteContext } from '#app/context.ts';
import type { ConsoleSessionView } from '#shared/contracts/console.ts';
import type { Permission } from '#shared/console/permissions.ts';
import type { Route } from './+types/layout.ts';
import { consoleApi } from './console-api.ts';
import styles from './Console.module.css';

/** Pages a visitor without a session may open: signing in and enrolling. */
function isOpenPage(path: string): boolean {
  return path === '/console/sign-in' || path.startsWith('/console/enrol/');
}

/**
 * The console's one guard for its pages (decision 226): the server put the session's operator
 * in the request context; without one every page but sign-in and enrolment goes to sign-in. The
 * server's permission checks stay the real ones: the pages only hide what a role cannot do.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const session = context.get(siteContext).console?.session ?? null;
  const path = new URL(request.url).pathname.replace(/\.data$/, '');
  if (!session && !isOpenPage(path)) throw redirect('/console/sign-in');
  if (session && path === '/console/sign-in') throw redirect('/console');
  return { session };
}

export const headers = () => ({ 'Cache-Control': 'no-store' });

/** The signed-in operator of the console's layout, or null (sign-in and enrolment pages). */
export function useConsoleSession(): ConsoleSessionView | null {
  return useRouteLoaderData<typeof loader>('console')?.session ?? null;
}

export function can(session: ConsoleSessionView | null, permission: Permission): boolean {
  return session?.operator.permissions.includes(permission) ?? false;
}

function SignOut() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={`button button-sm ${styles.signOut}`}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void consoleApi('sign-out', { method: 'POST' }).finally(() =>
          window.location.assign('/console/sign-in'),
        );
      }}
    >
      Sign out
    </button>
  );
}

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  const { session } = loaderData;
  return (
    <div className={styles.shell}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={styles.bar}>
        <div className={`container ${styles.barInner}`}>
          <a className={styles.brand} href="/console">
            Orgsmith <span>console</span>
          </a>
          {session ? (
            <nav aria-label="Console" className={styles.nav}>
              <NavLink to="/console" end>
                Home
              </NavLink>
              {can(session, 'licence.read') ? (
                <NavLink to="/console/customers">Customers</NavLink>
              ) : null}
              {can(session, 'billing.read') ? <NavLink to="/console/logs">Logs</NavLink> : null}
              {can(session, 'operator.manage') ? (
                <NavLink to="/console/operators">Operators</NavLink>
              ) : null}
              {can(session, 'billing.read') ? (
                <NavLink to="/console/refunds">Refunds</NavLink>
              ) : null}
              {can(session, 'billing.read') ? (
                <NavLink to="/console/documents">Documents</NavLink>
              ) : null}
              {can(session, 'billing.read') ? (
                <NavLink to="/console/change-requests">Change requests</NavLink>
              ) : null}
            </nav>
          ) : null}
          {session ? (
            <div className={styles.who}>
              <span>{session.operator.email}</span>
              <span className={styles.badge}>{session.operator.role}</span>
              <SignOut />
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className={`container ${styles.main}`}>
        <Outlet />
      </main>
    </div>
  );
}

/** A console page that failed: said in the console's frame, never the site's. */
export function ErrorBoundary() {
  return (
    <main id="main" tabIndex={-1} className={`container ${styles.main}`}>
      <title>Something went wrong - Orgsmith console</title>
      <h1>Something went wrong</h1>
      <p>
        The console could not show this page. Try again in a moment, or{' '}
        <a href="/console">go back to the console</a>.
      </p>
    </main>
  );
}
