import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { devopsDnaContent } from '#app/content/features/true-devops-dna.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.featureDevopsDna);

export default function FeatureDevopsDnaPage() {
  return <FeaturePage page={pages.featureDevopsDna} content={devopsDnaContent} />;
}
