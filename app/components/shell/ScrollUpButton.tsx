import { useEffect, useState } from 'react';
import styles from './ScrollUpButton.module.css';

/** Shown once the visitor has scrolled about a screen down. */
const showAfterPx = 600;

/** Back to the top of the page; smooth unless the visitor prefers reduced motion. */
export function ScrollUpButton() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setVisible(window.scrollY > showAfterPx);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  const scrollUp = () => {
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduce ? 'instant' : 'smooth' });
    // Keyboard users continue from the top of the page, not from the button.
    document.getElementById('main')?.focus({ preventScroll: true });
  };

  return (
    <button
      type="button"
      className={styles.button}
      data-visible={visible || undefined}
      tabIndex={visible ? 0 : -1}
      onClick={scrollUp}
    >
      <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
        <path
          d="M10 16V4M4.5 9.5L10 4l5.5 5.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="visually-hidden">Scroll to top</span>
    </button>
  );
}
