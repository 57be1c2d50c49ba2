import { ServicePage } from '#app/components/content/ServicePage.tsx';
import { designAndBuildContent } from '#app/content/services/design-and-build.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.serviceDesignBuild);

export default function DesignAndBuildPage() {
  return <ServicePage page={pages.serviceDesignBuild} content={designAndBuildContent} />;
}
