import { FeaturePage } from '../../components/content/FeaturePage.tsx';
import { devopsDnaContent } from '../../content/features/true-devops-dna.tsx';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.featureDevopsDna);

export default function FeatureDevopsDnaPage() {
  return <FeaturePage page={pages.featureDevopsDna} content={devopsDnaContent} />;
}
