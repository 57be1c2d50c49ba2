import { useId } from 'react';
import styles from './Diagram.module.css';

interface Environment {
  x: number;
  name: string;
  org: string;
  branch: string;
}

const environments: readonly Environment[] = [
  { x: 20, name: 'Environment uat', org: 'sandbox uat', branch: 'uat' },
  { x: 280, name: 'Environment prod', org: 'production', branch: 'main' },
];

/** Environment = org + branch; flows in, out and merge; a stack around them. */
export function HowItWorksDiagram() {
  const id = useId();
  const arrowId = `${id}-arrow`;
  return (
    <svg
      className={styles.diagram}
      viewBox="0 0 520 300"
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
    >
      <title id={`${id}-title`}>How Orgsmith works</title>
      <desc id={`${id}-desc`}>
        A stack holds environments that share one production org, one repository and one flow
        configuration. Each environment pairs a Salesforce org with a Git branch: the inbound flow
        (flow:in) syncs org metadata to the branch, the outbound flow (flow:out) deploys the branch
        to the org, and the merge flow (flow:merge) merges one environment’s branch into another’s
        and deploys it, as one atomic operation.
      </desc>
      <defs>
        <marker
          id={arrowId}
          viewBox="0 0 10 10"
          refX="8"
          refY="5"
          markerWidth="6"
          markerHeight="6"
          orient="auto-start-reverse"
        >
          <path d="M0 0L10 5L0 10z" className={styles.head} />
        </marker>
      </defs>
      <rect x="4" y="4" width="512" height="292" rx="14" className={styles.frame} />
      <text x="20" y="28" className={styles.muted}>
        Stack · one production org, one repository, one flow configuration
      </text>
      {environments.map((env) => (
        <g key={env.name}>
          <rect x={env.x} y="44" width="220" height="208" rx="10" className={styles.box} />
          <text x={env.x + 14} y="66" className={styles.label}>
            {env.name}
          </text>
          <rect x={env.x + 14} y="78" width="192" height="48" rx="8" className={styles.org} />
          <text x={env.x + 110} y="98" textAnchor="middle" className={styles.label}>
            Salesforce org
          </text>
          <text x={env.x + 110} y="116" textAnchor="middle" className={styles.text}>
            {env.org}
          </text>
          <rect x={env.x + 14} y="190" width="192" height="48" rx="8" className={styles.branch} />
          <text x={env.x + 110} y="210" textAnchor="middle" className={styles.label}>
            Git branch
          </text>
          <text x={env.x + 110} y="228" textAnchor="middle" className={styles.text}>
            {env.branch}
          </text>
          <line
            x1={env.x + 54}
            y1="130"
            x2={env.x + 54}
            y2="184"
            className={styles.arrow}
            markerEnd={`url(#${arrowId})`}
          />
          <text x={env.x + 62} y="152" className={styles.code}>
            flow:in
          </text>
          <line
            x1={env.x + 166}
            y1="186"
            x2={env.x + 166}
            y2="132"
            className={styles.arrow}
            markerEnd={`url(#${arrowId})`}
          />
          <text x={env.x + 158} y="176" textAnchor="end" className={styles.code}>
            flow:out
          </text>
        </g>
      ))}
      <line
        x1="228"
        y1="214"
        x2="286"
        y2="214"
        className={styles.arrow}
        markerEnd={`url(#${arrowId})`}
      />
      <line x1="260" y1="220" x2="260" y2="262" className={styles.leader} />
      <text x="260" y="280" textAnchor="middle" className={styles.code}>
        flow:merge (atomic)
      </text>
    </svg>
  );
}
