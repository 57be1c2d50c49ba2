import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import { buildTimeline, firstFrameTick, screenAt, type TerminalSession } from './timeline.ts';
import styles from './TerminalDemo.module.css';

/** Product rules (docs/product-rules.md#constants): typing starts this long after the terminal is on screen. */
export const terminalStartDelayMs = 600;

type Phase = 'idle' | 'waiting' | 'running' | 'paused' | 'done';

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia(reducedMotionQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const prefersReducedMotion = () => window.matchMedia(reducedMotionQuery).matches;
const noSubscription = () => () => {};

/** True while the element is in the viewport and the tab is visible. */
function useOnScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let intersecting = false;
    const update = () => setOnScreen(intersecting && document.visibilityState === 'visible');
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) intersecting = entry.isIntersecting;
      update();
    });
    observer.observe(element);
    document.addEventListener('visibilitychange', update);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', update);
    };
  }, [ref]);
  return onScreen;
}

/**
 * The home page terminal: renders the first step finished (in the server HTML too), types the
 * rest once it is on screen, pauses off screen, shows the final state at once under reduced motion. The screen is decorative (aria-hidden); the whole
 * transcript is in the accessibility tree. Its height is fixed in CSS, so it never shifts layout.
 */
export function TerminalDemo({ session }: { session: TerminalSession }) {
  const timeline = useMemo(() => buildTimeline(session), [session]);
  const total = timeline.ticks.length;
  const rootRef = useRef<HTMLElement>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  const captionId = useId();

  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const reducedMotion = useSyncExternalStore(
    subscribeReducedMotion,
    prefersReducedMotion,
    () => false,
  );
  const onScreen = useOnScreen(rootRef);
  const [started, setStarted] = useState(false);
  const [paused, setPaused] = useState(false);
  // The server and the first client render show the first step finished; typing goes on from there.
  const firstTick = useMemo(() => firstFrameTick(session), [session]);
  const [tick, setTick] = useState(firstTick);
  const [run, setRun] = useState(0);
  // The timer chain reads and advances these, so each step schedules the next without a render.
  const tickRef = useRef(firstTick);
  const startedRef = useRef(false);

  const shownTick = reducedMotion ? total : tick;
  const phase: Phase = reducedMotion
    ? 'done'
    : shownTick >= total
      ? 'done'
      : paused
        ? 'paused'
        : started
          ? 'running'
          : hydrated && onScreen
            ? 'waiting'
            : 'idle';

  useEffect(() => {
    if (reducedMotion || paused || !onScreen) return;
    let timer = 0;
    const schedule = () => {
      const current = tickRef.current;
      if (current >= total) return;
      const delay = startedRef.current
        ? (timeline.ticks[current]?.delay ?? 0)
        : terminalStartDelayMs;
      timer = window.setTimeout(() => {
        if (startedRef.current) {
          tickRef.current = current + 1;
          setTick(current + 1);
        } else {
          startedRef.current = true;
          setStarted(true);
        }
        schedule();
      }, delay);
    };
    schedule();
    return () => window.clearTimeout(timer);
  }, [reducedMotion, paused, onScreen, total, timeline, run]);

  // Like a real terminal, the newest line stays in view.
  useLayoutEffect(() => {
    const screen = screenRef.current;
    if (screen) screen.scrollTop = screen.scrollHeight;
  }, [shownTick]);

  const toggle = () => {
    if (phase === 'done') {
      tickRef.current = 0;
      startedRef.current = true;
      setTick(0);
      setStarted(true);
      setPaused(false);
      setRun(run + 1);
    } else {
      setPaused(!paused);
    }
  };
  const control =
    phase === 'done'
      ? { text: 'Replay', label: 'Replay the terminal demo' }
      : phase === 'paused'
        ? { text: 'Resume', label: 'Resume the terminal demo' }
        : { text: 'Pause', label: 'Pause the terminal demo' };

  const screen = screenAt(timeline, shownTick);
  return (
    <figure
      ref={rootRef}
      className={styles.terminal}
      aria-labelledby={captionId}
      data-phase={phase}
      data-testid="terminal-demo"
    >
      <div className={styles.titleBar}>
        <span className={styles.dots} aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <span className={styles.title} aria-hidden="true">
          {session.title}
        </span>
        <button
          type="button"
          className={styles.control}
          onClick={toggle}
          aria-label={control.label}
          disabled={!hydrated}
        >
          {control.text}
        </button>
      </div>
      <div
        ref={screenRef}
        className={styles.screen}
        aria-hidden="true"
        data-testid="terminal-screen"
      >
        {screen.lines.map((line, index) =>
          line.kind === 'command' ? (
            <div key={index} className={styles.line}>
              <span className={styles.prompt}>{session.prompt} </span>
              {line.text}
            </div>
          ) : (
            <div key={index} className={`${styles.line} ${styles[line.tone]}`}>
              {line.text}
            </div>
          ),
        )}
        {screen.input === null ? null : (
          <div className={styles.line}>
            <span className={styles.prompt}>{session.prompt} </span>
            {/* While typing, the cursor is a glyph in the same text node, so no box moves (CLS 0). */}
            {screen.input ? `${screen.input}\u2588` : <span className={styles.cursor} />}
          </div>
        )}
      </div>
      <div className="visually-hidden" data-testid="terminal-transcript">
        <p>Transcript of the terminal session:</p>
        <ol>
          {session.steps.map((step) => (
            <li key={step.command}>
              <code>{`${session.prompt} ${step.command}`}</code>
              <ul>
                {step.output.map((line) => (
                  <li key={line.text}>{line.text}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </div>
      {/* A figure's caption is its first or last child. */}
      <figcaption id={captionId} className="visually-hidden">
        {session.description}
      </figcaption>
    </figure>
  );
}
