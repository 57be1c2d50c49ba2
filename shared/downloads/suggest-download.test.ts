import { describe, expect, it } from 'vitest';
import type { DownloadSelection } from './catalog.ts';
import {
  detectPlatform,
  unquoteHint,
  type ClientHints,
  type DetectedPlatform,
} from './platform.ts';
import { suggestDownload, suggestForOperatingSystem } from './suggest-download.ts';

const windowsMsi64: DownloadSelection = {
  operatingSystem: 'Windows',
  architecture: 'x64',
  format: 'msi',
};
const windowsMsi32: DownloadSelection = {
  operatingSystem: 'Windows',
  architecture: 'x86',
  format: 'msi',
};
const macPkg: DownloadSelection = {
  operatingSystem: 'macOS',
  architecture: 'universal',
  format: 'pkg',
};
const linuxX64: DownloadSelection = {
  operatingSystem: 'Linux',
  architecture: 'x64',
  format: 'zip',
};
const linuxArm64: DownloadSelection = {
  operatingSystem: 'Linux',
  architecture: 'arm64',
  format: 'zip',
};

interface Case {
  name: string;
  userAgent: string;
  hints?: ClientHints;
  detected: DetectedPlatform;
  suggestion: DownloadSelection;
}

// Real user-agent strings as the browsers send them (Chromium's are "reduced": frozen platform parts).
const cases: Case[] = [
  {
    name: 'Windows 11, Chrome 64-bit',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    detected: { os: 'Windows', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Windows 11, Edge 64-bit with client hints',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
    hints: { platform: '"Windows"', architecture: '"x86"', bitness: '"64"' },
    detected: { os: 'Windows', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Windows 10, Firefox 64-bit',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
    detected: { os: 'Windows', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Windows 10 32-bit, Firefox 32-bit',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; rv:115.0) Gecko/20100101 Firefox/115.0',
    detected: { os: 'Windows', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Windows 7 32-bit, Internet Explorer 11',
    userAgent: 'Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko',
    detected: { os: 'Windows', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Windows 10 32-bit, Chrome (frozen "Win64; x64" string, client hints tell the truth)',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    hints: { platform: '"Windows"', architecture: '"x86"', bitness: '"32"' },
    detected: { os: 'Windows', cpu: 'ia32' },
    suggestion: windowsMsi32,
  },
  {
    name: 'WOW64: 32-bit Firefox on 64-bit Windows',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; WOW64; rv:52.0) Gecko/20100101 Firefox/52.0',
    detected: { os: 'Windows', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'WOW64: Internet Explorer 11 on 64-bit Windows 7',
    userAgent: 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
    detected: { os: 'Windows', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Windows on ARM, Edge (client hints say arm, 64-bit)',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
    hints: { platform: '"Windows"', architecture: '"arm"', bitness: '"64"' },
    detected: { os: 'Windows', cpu: 'arm64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Windows RT (32-bit ARM), Internet Explorer 10',
    userAgent: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; ARM; Trident/6.0; Touch)',
    detected: { os: 'Windows', cpu: 'arm' },
    suggestion: windowsMsi32,
  },
  {
    name: 'Windows Itanium',
    userAgent: 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.2; Win64; IA64)',
    detected: { os: 'Windows', cpu: 'ia64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'macOS on Intel, Chrome',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    hints: { platform: '"macOS"', architecture: '"x86"', bitness: '"64"' },
    detected: { os: 'macOS', cpu: 'amd64' },
    suggestion: macPkg,
  },
  {
    name: 'macOS on Apple Silicon, Chrome (says Intel; client hints say arm)',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    hints: { platform: '"macOS"', architecture: '"arm"', bitness: '"64"' },
    detected: { os: 'macOS', cpu: 'arm64' },
    suggestion: macPkg,
  },
  {
    name: 'macOS on Apple Silicon, Safari (no client hints, says Intel)',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    detected: { os: 'macOS', cpu: 'amd64' },
    suggestion: macPkg,
  },
  {
    name: 'macOS, Firefox',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
    detected: { os: 'macOS', cpu: 'amd64' },
    suggestion: macPkg,
  },
  {
    name: 'Linux x86_64, Chrome',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    detected: { os: 'Linux', cpu: 'amd64' },
    suggestion: linuxX64,
  },
  {
    name: 'Ubuntu x86_64, Firefox',
    userAgent: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
    detected: { os: 'Linux', cpu: 'amd64' },
    suggestion: linuxX64,
  },
  {
    name: 'Linux aarch64, Firefox',
    userAgent: 'Mozilla/5.0 (X11; Linux aarch64; rv:127.0) Gecko/20100101 Firefox/127.0',
    detected: { os: 'Linux', cpu: 'arm64' },
    suggestion: linuxArm64,
  },
  {
    name: 'Linux aarch64, Chromium (frozen "x86_64" string, client hints say arm)',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    hints: { platform: '"Linux"', architecture: '"arm"', bitness: '"64"' },
    detected: { os: 'Linux', cpu: 'arm64' },
    suggestion: linuxArm64,
  },
  {
    name: 'Linux armv7l (32-bit Raspberry Pi OS): not arm64, so x64',
    userAgent:
      'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    detected: { os: 'Linux', cpu: 'arm' },
    suggestion: linuxX64,
  },
  {
    name: 'Linux i686, Firefox',
    userAgent: 'Mozilla/5.0 (X11; Linux i686; rv:109.0) Gecko/20100101 Firefox/115.0',
    detected: { os: 'Linux', cpu: 'ia32' },
    suggestion: linuxX64,
  },
  {
    name: 'ChromeOS x86_64: the Linux build',
    userAgent:
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    hints: { platform: '"Chrome OS"' },
    detected: { os: 'ChromeOS', cpu: 'amd64' },
    suggestion: linuxX64,
  },
  {
    name: 'ChromeOS aarch64',
    userAgent:
      'Mozilla/5.0 (X11; CrOS aarch64 15633.69.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    detected: { os: 'ChromeOS', cpu: 'arm64' },
    suggestion: linuxArm64,
  },
  {
    name: 'iPhone, Safari: unknown for downloads, Windows default',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    detected: { os: 'iOS', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'iPad, Chrome',
    userAgent:
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
    detected: { os: 'iOS', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Android, Chrome (reduced string)',
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    hints: { platform: '"Android"' },
    detected: { os: 'Android', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Android, Firefox',
    userAgent: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
    detected: { os: 'Android', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Android, Samsung Internet on arm64',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    hints: { platform: '"Android"', architecture: '"arm"', bitness: '"64"' },
    detected: { os: 'Android', cpu: 'arm64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'Googlebot',
    userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    detected: { os: 'unknown', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Googlebot smartphone',
    userAgent:
      'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    detected: { os: 'Android', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'Bingbot',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
    detected: { os: 'unknown', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'curl',
    userAgent: 'curl/8.5.0',
    detected: { os: 'unknown', cpu: null },
    suggestion: windowsMsi32,
  },
  {
    name: 'FreeBSD amd64: not a supported system, Windows default with its CPU',
    userAgent: 'Mozilla/5.0 (X11; FreeBSD amd64; rv:127.0) Gecko/20100101 Firefox/127.0',
    detected: { os: 'unknown', cpu: 'amd64' },
    suggestion: windowsMsi64,
  },
  {
    name: 'no user agent at all',
    userAgent: '',
    detected: { os: 'unknown', cpu: null },
    suggestion: windowsMsi32,
  },
];

describe('download suggestion from user agent and client hints', () => {
  it.each(cases)('$name', ({ userAgent, hints, detected, suggestion }) => {
    const platform = detectPlatform(userAgent, hints);
    expect(platform).toEqual(detected);
    expect(suggestDownload(platform)).toEqual(suggestion);
  });

  it('lets the platform hint override the user agent', () => {
    const ua =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126 Safari/537.36';
    expect(detectPlatform(ua, { platform: '"Linux"' }).os).toBe('Linux');
    expect(detectPlatform(ua, { platform: 'macOS' }).os).toBe('macOS');
    // "Unknown" and empty hints leave the user agent in charge.
    expect(detectPlatform(ua, { platform: '"Unknown"' }).os).toBe('Windows');
    expect(detectPlatform(ua, { platform: '""', architecture: '""', bitness: '""' })).toEqual({
      os: 'Windows',
      cpu: 'amd64',
    });
  });

  it('combines partial CPU hints with the user agent', () => {
    const linuxArm = 'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 Chrome/120 Safari/537.36';
    // An architecture hint alone keeps the user agent's word size when the family agrees.
    expect(detectPlatform(linuxArm, { architecture: 'arm' }).cpu).toBe('arm');
    expect(detectPlatform('Mozilla/5.0 (Windows NT 10.0)', { architecture: 'arm' }).cpu).toBe(
      'arm64',
    );
    // A bitness hint alone corrects a user agent of the wrong word size.
    expect(detectPlatform(linuxArm, { bitness: '64' }).cpu).toBe('amd64');
    expect(detectPlatform(linuxArm, { bitness: '32' }).cpu).toBe('arm');
    expect(detectPlatform('Mozilla/5.0 (Windows NT 10.0)', { bitness: '64' }).cpu).toBe('amd64');
  });

  it('follows docs/product-rules.md#constants for every operating system and CPU', () => {
    const cpus = ['amd64', 'ia32', 'arm64', 'arm', 'ia64', 'mips64', 'mips', null] as const;
    for (const cpu of cpus) {
      expect(suggestForOperatingSystem('macOS', cpu)).toEqual(macPkg);
      expect(suggestForOperatingSystem('Linux', cpu)).toEqual(
        cpu === 'arm64' ? linuxArm64 : linuxX64,
      );
      const is64 = cpu === 'amd64' || cpu === 'arm64' || cpu === 'ia64' || cpu === 'mips64';
      expect(suggestForOperatingSystem('Windows', cpu)).toEqual(is64 ? windowsMsi64 : windowsMsi32);
    }
  });

  it('reads structured-field strings of client-hint headers', () => {
    expect(unquoteHint('"Windows"')).toBe('Windows');
    expect(unquoteHint(' "Chrome OS" ')).toBe('Chrome OS');
    expect(unquoteHint('"a\\"b"')).toBe('a"b');
    expect(unquoteHint('""')).toBeUndefined();
    expect(unquoteHint(null)).toBeUndefined();
    expect(unquoteHint('arm')).toBe('arm');
  });
});
