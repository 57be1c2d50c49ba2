import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { endToEndContent } from '#app/content/features/end-to-end-salesforce-devops.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.featureEndToEnd);

export default function FeatureEndToEndPage() {
  return <FeaturePage page={pages.featureEndToEnd} content={endToEndContent} />;
}
