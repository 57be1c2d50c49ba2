import { ServicePage } from '../../components/content/ServicePage.tsx';
import { deploymentAsAServiceContent } from '../../content/services/deployment-as-a-service.tsx';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.serviceDeployment);

export default function DeploymentAsAServicePage() {
  return <ServicePage page={pages.serviceDeployment} content={deploymentAsAServiceContent} />;
}
