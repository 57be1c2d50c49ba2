import { Link } from 'react-router';
import { permissions, roleSummaries } from '#shared/console/permissions.ts';
import { consoleMeta } from './console-meta.ts';
import { Dashboard } from './Dashboard.tsx';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Home');

/**
 * The console's home page: the founder's morning figures (decision 234) for every role, then who
 * is signed in, with which role, and what it allows.
 */
export default function ConsoleHome() {
  const session = useConsoleSession();
  if (!session) return null;
  const { operator } = session;
  const thisMonth = new Date().toISOString().slice(0, 7);
  return (
    <>
      <Dashboard thisMonth={thisMonth} />
      <section className={styles.card} aria-labelledby="signed-in">
        <h2 id="signed-in">Signed in</h2>
        <p>
          You are signed in as <strong>{operator.email}</strong> with the role{' '}
          <span className={styles.badge}>{operator.role}</span>: {roleSummaries[operator.role]}.
        </p>
        <p className={styles.muted}>
          The session ends after 30 minutes without activity, or when you sign out.
        </p>
        <details>
          <summary>What your role allows</summary>
          <ul className={styles.permissions}>
            {operator.permissions.map((permission) => (
              <li key={permission}>
                <code title={permissions[permission]}>{permission}</code>
              </li>
            ))}
          </ul>
        </details>
        {can(session, 'licence.read') ? (
          <p>
            <Link to="/console/customers">Find a customer</Link>
          </p>
        ) : null}
        {can(session, 'operator.manage') ? (
          <p>
            <Link to="/console/operators">Manage operators</Link>
          </p>
        ) : null}
      </section>
    </>
  );
}
