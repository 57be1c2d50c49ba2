import { Diagram } from './Diagram.tsx';
import src from './how-it-works.svg';

/** Environment = org + branch; flows in, out and merge; a stack around them. */
export function HowItWorksDiagram() {
  return (
    <Diagram
      src={src}
      width={520}
      height={300}
      title="How Orgsmith works"
      description="A stack holds environments that share one production org, one repository and one flow configuration. Each environment pairs a Salesforce org with a Git branch: the inbound flow (flow:in) syncs org metadata to the branch, the outbound flow (flow:out) deploys the branch to the org, and the merge flow (flow:merge) merges one environment’s branch into another’s and deploys it, as one atomic operation."
    />
  );
}
