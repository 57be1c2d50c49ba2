import { useEffect, useState, useSyncExternalStore } from 'react';
import { detectPlatform, type DetectedPlatform } from '#shared/downloads/platform.ts';

/** The part of `navigator.userAgentData` (User-Agent Client Hints) the suggestion reads. */
interface UserAgentData {
  platform: string;
  getHighEntropyValues(
    hints: string[],
  ): Promise<{ architecture?: string; bitness?: string; platform?: string }>;
}

function isUserAgentData(value: unknown): value is UserAgentData {
  return (
    typeof value === 'object' &&
    value !== null &&
    'getHighEntropyValues' in value &&
    typeof value.getHighEntropyValues === 'function'
  );
}

/**
 * What the server renders for every visitor: the spec's default system, Windows, on the CPU most
 * Windows PCs have (x64); the browser corrects both where they are wrong.
 */
const everyVisitor: DetectedPlatform = { os: 'Windows', cpu: 'amd64' };

let fromUserAgent: DetectedPlatform | undefined;
/** The browser's system from its user agent (and the low-entropy platform hint), read once. */
function browserPlatform(): DetectedPlatform {
  if (!fromUserAgent) {
    const data: unknown = Reflect.get(navigator, 'userAgentData');
    const platform = isUserAgentData(data) ? data.platform : undefined;
    fromUserAgent = detectPlatform(navigator.userAgent, { platform });
  }
  return fromUserAgent;
}

const neverChanges = () => () => undefined;

/**
 * The visitor's system, decided in the browser so the page's HTML stays the same for everyone
 * (decision 100): the default while hydrating, then the user agent's, then refined from the
 * high-entropy client hints (CPU architecture and bitness) where the browser offers them.
 */
export function useVisitorPlatform(): DetectedPlatform {
  const platform = useSyncExternalStore(neverChanges, browserPlatform, () => everyVisitor);
  const [refined, setRefined] = useState<DetectedPlatform | null>(null);
  useEffect(() => {
    const data: unknown = Reflect.get(navigator, 'userAgentData');
    if (!isUserAgentData(data)) return;
    let active = true;
    data
      .getHighEntropyValues(['architecture', 'bitness'])
      .then((values) => {
        if (!active) return;
        setRefined(
          detectPlatform(navigator.userAgent, {
            platform: values.platform ?? data.platform,
            architecture: values.architecture,
            bitness: values.bitness,
          }),
        );
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);
  return refined ?? platform;
}
