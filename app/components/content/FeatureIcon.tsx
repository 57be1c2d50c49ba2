/** The icons a feature card can show. */
export type FeatureIconName = 'flows' | 'metadata' | 'git' | 'pipeline' | 'shield' | 'toolbox';

const paths: Record<FeatureIconName, string> = {
  flows: 'M4 7h12m0 0-3-3m3 3-3 3M20 17H8m0 0 3-3m-3 3 3 3',
  metadata: 'M4 5h16l-6 7v6l-4 2v-8L4 5z',
  git: 'M6 3v12m0 0a3 3 0 1 0 0 6 3 3 0 0 0 0-6zm12-6a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm0 0c0 5-6 4-12 9',
  pipeline: 'M3 12h4l2-5 4 10 2-5h6',
  shield: 'M12 3l7 3v5c0 5-3 8-7 10-4-2-7-5-7-10V6l7-3zm-3 9 2 2 4-4',
  toolbox: 'M3 9h18v10H3zM8 9V6a1 1 0 0 1 1-1h6a1 1 0 0 1 1 1v3M3 13h18',
};

/** A 24 px line icon for a feature card; decorative, the card title names the feature. */
export function FeatureIcon({ name }: { name: FeatureIconName }) {
  return (
    <svg
      aria-hidden="true"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={paths[name]} />
    </svg>
  );
}
