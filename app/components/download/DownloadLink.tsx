import type { ReactNode } from 'react';
import { trackDownload } from '#app/analytics/analytics.ts';
import type { ReleaseArtifact } from '#shared/downloads/catalog.ts';

interface DownloadLinkProps {
  artifact: ReleaseArtifact;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
  'aria-describedby'?: string;
}

/** A direct link to the file host that records the download event (docs/product-rules.md#service-calls, #constants) on click. */
export function DownloadLink({ artifact, className, children, ...aria }: DownloadLinkProps) {
  const track = () =>
    trackDownload({
      operatingSystem: artifact.operatingSystem,
      architecture: artifact.architecture,
      format: artifact.format,
    });
  return (
    <a
      href={artifact.downloadUri}
      className={className}
      data-file-name={artifact.fileName}
      // A click before hydration is kept and replayed, so its download event is not lost (decision 138).
      data-replay={`download:${artifact.fileName}`}
      onClick={track}
      onAuxClick={(event) => {
        // A middle click opens the file in a new tab: still a download.
        if (event.button === 1) track();
      }}
      {...aria}
    >
      {children}
    </a>
  );
}
