import type { DownloadSelection, OperatingSystem } from './catalog.ts';
import { is64BitCpu, type CpuArchitecture, type DetectedPlatform } from './platform.ts';

/**
 * Where a detected system lands among the three download tabs. ChromeOS runs the Linux build
 * (in its Linux development environment); phones, tablets, bots and anything unrecognised get
 * the default, Windows (docs/product-rules.md#behaviour, #constants).
 */
export function downloadOperatingSystem(platform: DetectedPlatform): OperatingSystem {
  switch (platform.os) {
    case 'Windows':
    case 'macOS':
    case 'Linux':
      return platform.os;
    case 'ChromeOS':
      return 'Linux';
    default:
      return 'Windows';
  }
}

/**
 * The suggestion rules of docs/product-rules.md#constants for one operating system: macOS gets the universal .pkg; Linux
 * gets the .zip, arm64 on an arm64 CPU and x64 otherwise; Windows gets the .msi, x64 on a 64-bit
 * CPU (amd64, arm64, ia64, mips64) and x86 otherwise.
 */
export function suggestForOperatingSystem(
  operatingSystem: OperatingSystem,
  cpu: CpuArchitecture | null,
): DownloadSelection {
  switch (operatingSystem) {
    case 'macOS':
      return { operatingSystem, architecture: 'universal', format: 'pkg' };
    case 'Linux':
      return { operatingSystem, architecture: cpu === 'arm64' ? 'arm64' : 'x64', format: 'zip' };
    case 'Windows':
      return { operatingSystem, architecture: is64BitCpu(cpu) ? 'x64' : 'x86', format: 'msi' };
  }
}

/** The artifact to suggest to a visitor on the given platform. */
export function suggestDownload(platform: DetectedPlatform): DownloadSelection {
  return suggestForOperatingSystem(downloadOperatingSystem(platform), platform.cpu);
}
