import { ServicePage } from '../../components/content/ServicePage.tsx';
import { designAndBuildContent } from '../../content/services/design-and-build.tsx';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.serviceDesignBuild);

export default function DesignAndBuildPage() {
  return <ServicePage page={pages.serviceDesignBuild} content={designAndBuildContent} />;
}
