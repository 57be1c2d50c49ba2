import { Link } from 'react-router';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import styles from './NeedHelp.module.css';

/** The "need help choosing" block: a conversation instead of a guess. */
export function NeedHelp() {
  return (
    <section className={styles.band} aria-labelledby="need-help-title">
      <div>
        <h2 id="need-help-title">Need help choosing?</h2>
        <p className={styles.text}>
          Tell us how many orgs and branches you run and how you release today. We will suggest the
          plan that fits — and if you would rather not run the pipeline yourself, ask about
          Deployment as a Service or Design &amp; Build.
        </p>
      </div>
      <div className={styles.actions}>
        <ModalLink modal="contact" className="button button-primary">
          Get in touch
        </ModalLink>
        <Link to="/support" className="button button-secondary">
          Visit support
        </Link>
      </div>
    </section>
  );
}
