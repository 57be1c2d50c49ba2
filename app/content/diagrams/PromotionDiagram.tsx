import { Diagram } from './Diagram.tsx';
import src from './promotion.svg';

/** One branch per environment; merge flows promote along the path dev → qa → uat → main. */
export function PromotionDiagram() {
  return (
    <Diagram
      src={src}
      width={556}
      height={210}
      title="One branch per environment"
      description="Four environments, each an org with its own branch: dev sandbox with branch dev, qa sandbox with branch qa, uat sandbox with branch uat, and production with branch main. Inbound and outbound flows connect each org with its branch; merge flows promote changes from dev to qa, from qa to uat and from uat to main."
    />
  );
}
