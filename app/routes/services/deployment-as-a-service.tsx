import { ServicePage } from '#app/components/content/ServicePage.tsx';
import { deploymentAsAServiceContent } from '#app/content/services/deployment-as-a-service.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.serviceDeployment);

export default function DeploymentAsAServicePage() {
  return <ServicePage page={pages.serviceDeployment} content={deploymentAsAServiceContent} />;
}
