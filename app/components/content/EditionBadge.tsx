import styles from './EditionBadge.module.css';

/** Which editions include a command: every edition (trials too), Pro and Enterprise, or Enterprise only. */
export type Edition = 'all' | 'pro' | 'enterprise';

const labels: Record<Edition, string> = {
  all: 'All editions',
  pro: 'Pro and higher',
  enterprise: 'Enterprise',
};

/** Which editions include a command or feature. */
export function EditionBadge({ edition }: { edition: Edition }) {
  return <span className={`${styles.badge} ${styles[edition]}`}>{labels[edition]}</span>;
}
