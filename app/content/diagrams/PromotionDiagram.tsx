import { useId } from 'react';
import styles from './Diagram.module.css';

const lanes = [
  { org: 'dev sandbox', branch: 'dev' },
  { org: 'qa sandbox', branch: 'qa' },
  { org: 'uat sandbox', branch: 'uat' },
  { org: 'production', branch: 'main' },
] as const;

const laneWidth = 112;
const gap = 28;

/** One branch per environment; merge flows promote along the path dev → qa → uat → main. */
export function PromotionDiagram() {
  const id = useId();
  const arrowId = `${id}-arrow`;
  return (
    <svg
      className={styles.diagram}
      viewBox="0 0 556 210"
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
    >
      <title id={`${id}-title`}>One branch per environment</title>
      <desc id={`${id}-desc`}>
        Four environments, each an org with its own branch: dev sandbox with branch dev, qa sandbox
        with branch qa, uat sandbox with branch uat, and production with branch main. Inbound and
        outbound flows connect each org with its branch; merge flows promote changes from dev to qa,
        from qa to uat and from uat to main.
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
      {lanes.map((lane, index) => {
        const x = 8 + index * (laneWidth + gap);
        const centre = x + laneWidth / 2;
        return (
          <g key={lane.branch}>
            <rect x={x} y="10" width={laneWidth} height="46" rx="8" className={styles.org} />
            <text x={centre} y="30" textAnchor="middle" className={styles.label}>
              Org
            </text>
            <text x={centre} y="47" textAnchor="middle" className={styles.text}>
              {lane.org}
            </text>
            <line
              x1={centre - 14}
              y1="60"
              x2={centre - 14}
              y2="116"
              className={styles.arrow}
              markerStart={`url(#${arrowId})`}
              markerEnd={`url(#${arrowId})`}
            />
            <text x={centre - 4} y="93" className={styles.muted}>
              in / out
            </text>
            <rect x={x} y="120" width={laneWidth} height="46" rx="8" className={styles.branch} />
            <text x={centre} y="140" textAnchor="middle" className={styles.label}>
              Branch
            </text>
            <text x={centre} y="157" textAnchor="middle" className={styles.code}>
              {lane.branch}
            </text>
            {index < lanes.length - 1 ? (
              <line
                x1={x + laneWidth + 2}
                y1="143"
                x2={x + laneWidth + gap - 2}
                y2="143"
                className={styles.arrow}
                markerEnd={`url(#${arrowId})`}
              />
            ) : null}
          </g>
        );
      })}
      <text x="278" y="196" textAnchor="middle" className={styles.muted}>
        → merge flows promote dev → qa → uat → main
      </text>
    </svg>
  );
}
