import { useEffect, useState } from 'react';
import { detectPlatform, type DetectedPlatform } from '../../../shared/downloads/platform.ts';

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
 * The server's detection, refined once in the browser from the high-entropy client hints
 * (CPU architecture and bitness) where the browser offers them; `null` until then.
 */
export function useRefinedPlatform(): DetectedPlatform | null {
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
  return refined;
}
