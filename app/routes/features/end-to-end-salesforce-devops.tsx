import { FeaturePage } from '../../components/content/FeaturePage.tsx';
import { endToEndContent } from '../../content/features/end-to-end-salesforce-devops.tsx';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.featureEndToEnd);

export default function FeatureEndToEndPage() {
  return <FeaturePage page={pages.featureEndToEnd} content={endToEndContent} />;
}
