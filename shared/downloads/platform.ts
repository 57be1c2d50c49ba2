/**
 * Works out the visitor's operating system and CPU from the User-Agent header and, where the
 * browser offers them, User-Agent Client Hints (`Sec-CH-UA-Platform`, `Sec-CH-UA-Arch`,
 * `Sec-CH-UA-Bitness`, or `navigator.userAgentData`). Client hints win: Chromium freezes its
 * user-agent string (always "Win64; x64" on Windows, always "Intel Mac OS X" on a Mac).
 */
import type { DetectedPlatform } from '../contracts/releases.ts';
import type { CpuArchitecture, DetectedOperatingSystem } from './vocabulary.ts';

export {
  cpuArchitectures,
  detectedOperatingSystems,
  type CpuArchitecture,
  type DetectedOperatingSystem,
} from './vocabulary.ts';
export type { DetectedPlatform };

const sixtyFourBit: ReadonlySet<CpuArchitecture> = new Set(['amd64', 'arm64', 'ia64', 'mips64']);

export function is64BitCpu(cpu: CpuArchitecture | null): boolean {
  return cpu !== null && sixtyFourBit.has(cpu);
}

export interface ClientHints {
  /** `Sec-CH-UA-Platform` / `userAgentData.platform`: "Windows", "macOS", "Linux", "Chrome OS", "Android", ... */
  platform?: string | undefined;
  /** `Sec-CH-UA-Arch` / `getHighEntropyValues(['architecture'])`: "x86", "arm" or "". */
  architecture?: string | undefined;
  /** `Sec-CH-UA-Bitness` / `getHighEntropyValues(['bitness'])`: "64", "32" or "". */
  bitness?: string | undefined;
}

const osPatterns: ReadonlyArray<[RegExp, DetectedOperatingSystem]> = [
  // Before macOS: iOS user agents say "like Mac OS X"; iPadOS in desktop mode is indistinguishable from a Mac.
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  // Before Linux: Android user agents say "Linux; Android".
  [/\bAndroid\b/, 'Android'],
  [/\bWindows Phone\b|\bIEMobile\b/, 'unknown'],
  [/\bWindows\b|\bWin(?:32|64|NT)\b|\bWin9[58x]\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b|\bmacOS\b/, 'macOS'],
  [/\bLinux\b|\b(?:Ubuntu|Fedora|Debian|openSUSE)\b/i, 'Linux'],
];

// Order matters: specific 64-bit names before the generic ones they contain.
const cpuPatterns: ReadonlyArray<[RegExp, CpuArchitecture]> = [
  [/\b(?:aarch64|arm64|arm_64|armv8l?)\b/i, 'arm64'],
  [/\bia64\b/i, 'ia64'],
  [/\bmips64\b/i, 'mips64'],
  // WOW64 is a 32-bit browser on 64-bit Windows: the machine is 64-bit.
  [/\b(?:x86_64|x86-64|x64|amd64|win64|wow64)\b/i, 'amd64'],
  // Safari and Chrome say "Intel" on Apple Silicon too; client hints correct it where offered.
  [/\bIntel Mac OS X\b/, 'amd64'],
  [/\b(?:armv[4-7]\w*|armhf|arm)\b/i, 'arm'],
  [/\bmips\b/i, 'mips'],
  [/\b(?:i[3-6]86|x86|ia32)\b/i, 'ia32'],
];

function detectOsFromUserAgent(userAgent: string): DetectedOperatingSystem {
  for (const [pattern, os] of osPatterns) if (pattern.test(userAgent)) return os;
  return 'unknown';
}

function detectCpuFromUserAgent(userAgent: string): CpuArchitecture | null {
  for (const [pattern, cpu] of cpuPatterns) if (pattern.test(userAgent)) return cpu;
  return null;
}

/** Client-hint header values are structured-field strings: `"Windows"` → `Windows`. */
export function unquoteHint(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  const text =
    trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
      ? trimmed.slice(1, -1).replace(/\\(["\\])/g, '$1')
      : trimmed;
  return text === '' ? undefined : text;
}

function osFromPlatformHint(platform: string | undefined): DetectedOperatingSystem | undefined {
  switch (platform?.toLowerCase()) {
    case 'windows':
      return 'Windows';
    case 'macos':
      return 'macOS';
    case 'linux':
      return 'Linux';
    case 'chrome os':
    case 'chromium os':
    case 'chromeos':
      return 'ChromeOS';
    case 'android':
      return 'Android';
    case 'ios':
      return 'iOS';
    default:
      // "Unknown", "" or anything new: let the user agent decide.
      return undefined;
  }
}

const cpuFamily: Record<CpuArchitecture, { family: 'x86' | 'arm' | 'other'; bits: 32 | 64 }> = {
  amd64: { family: 'x86', bits: 64 },
  ia32: { family: 'x86', bits: 32 },
  arm64: { family: 'arm', bits: 64 },
  arm: { family: 'arm', bits: 32 },
  ia64: { family: 'other', bits: 64 },
  mips64: { family: 'other', bits: 64 },
  mips: { family: 'other', bits: 32 },
};

function cpuFromHints(
  architecture: string | undefined,
  bitness: string | undefined,
  fromUserAgent: CpuArchitecture | null,
): CpuArchitecture | null {
  const family = architecture?.toLowerCase();
  const bits = bitness === '64' ? 64 : bitness === '32' ? 32 : undefined;
  const ua = fromUserAgent ? cpuFamily[fromUserAgent] : undefined;
  if (family === 'x86' || family === 'arm') {
    // Without a bitness hint, trust the user agent's word size when it names the same family.
    const size = bits ?? (ua?.family === family ? ua.bits : 64);
    if (family === 'x86') return size === 64 ? 'amd64' : 'ia32';
    return size === 64 ? 'arm64' : 'arm';
  }
  if (bits !== undefined) {
    if (ua && ua.bits === bits) return fromUserAgent;
    return bits === 64 ? 'amd64' : 'ia32';
  }
  return fromUserAgent;
}

/** The operating system and CPU of the visitor; `unknown`/`null` where nothing tells. */
export function detectPlatform(
  userAgent: string | null | undefined,
  hints: ClientHints = {},
): DetectedPlatform {
  const ua = userAgent ?? '';
  const os = osFromPlatformHint(unquoteHint(hints.platform)) ?? detectOsFromUserAgent(ua);
  const cpu = cpuFromHints(
    unquoteHint(hints.architecture),
    unquoteHint(hints.bitness),
    detectCpuFromUserAgent(ua),
  );
  return { os, cpu };
}

const cpuAliases: Record<string, CpuArchitecture> = {
  amd64: 'amd64',
  x64: 'amd64',
  x86_64: 'amd64',
  'x86-64': 'amd64',
  ia32: 'ia32',
  x86: 'ia32',
  i386: 'ia32',
  i686: 'ia32',
  arm64: 'arm64',
  aarch64: 'arm64',
  arm: 'arm',
  armhf: 'arm',
  armv7: 'arm',
  armv7l: 'arm',
  ia64: 'ia64',
  mips64: 'mips64',
  mips: 'mips',
};

/** CPU names as scripts write them (`x64`, `x86_64`, `aarch64`, ...) → the rules' names; `null` if unknown. */
export function parseCpuArchitecture(text: string): CpuArchitecture | null {
  return cpuAliases[text.toLowerCase()] ?? null;
}

export const cpuArchitectureNames: readonly string[] = Object.keys(cpuAliases);
