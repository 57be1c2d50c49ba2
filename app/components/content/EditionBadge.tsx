import type { Edition } from '#app/content/commands.ts';
import styles from './EditionBadge.module.css';

const labels: Record<Edition, string> = {
  all: 'All editions',
  pro: 'Pro and higher',
  enterprise: 'Enterprise',
};

/** Which editions include a command or feature. */
export function EditionBadge({ edition }: { edition: Edition }) {
  return <span className={`${styles.badge} ${styles[edition]}`}>{labels[edition]}</span>;
}
