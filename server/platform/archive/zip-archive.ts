import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A ZIP archive (PKWARE APPNOTE 6.3, no ZIP64: under 4 GiB and 65,535 entries) of files in
 * memory, deflated, names in UTF-8. Small enough to keep without a dependency: the books' export
 * writes one of a period's PDFs and CSV files (decision 221).
 */

export interface ZipEntry {
  /** A relative path with `/` separators: no leading `/`, no `..`, no backslash. */
  name: string;
  bytes: Uint8Array;
}

const SAFE_NAME = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\\\0]{1,255}$/;

/** MS-DOS date and time fields of `instant` (UTC), to the even second. */
function dosDateTime(instant: Date): { date: number; time: number } {
  const year = Math.min(Math.max(instant.getUTCFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((instant.getUTCMonth() + 1) << 5) | instant.getUTCDate(),
    time:
      (instant.getUTCHours() << 11) |
      (instant.getUTCMinutes() << 5) |
      Math.floor(instant.getUTCSeconds() / 2),
  };
}

export function zipArchive(entries: readonly ZipEntry[], modified: Date): Buffer {
  if (entries.length > 0xffff) throw new RangeError('Too many files for a ZIP without ZIP64');
  const { date, time } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const names = new Set<string>();
  for (const entry of entries) {
    if (!SAFE_NAME.test(entry.name)) throw new RangeError(`Not a safe file name: ${entry.name}`);
    if (names.has(entry.name)) throw new RangeError(`Twice in one archive: ${entry.name}`);
    names.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const data = deflateRawSync(entry.bytes);
    const crc = crc32(entry.bytes);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.byteLength, 18);
    local.writeUInt32LE(entry.bytes.byteLength, 22);
    local.writeUInt16LE(name.byteLength, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.byteLength, 20);
    central.writeUInt32LE(entry.bytes.byteLength, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE((0o100600 << 16) >>> 0, 38); // a regular file, 0600
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.byteLength + name.byteLength + data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  if (offset + directory.byteLength > 0xffffffff)
    throw new RangeError('Too large for a ZIP without ZIP64');
  return Buffer.concat([...locals, directory, end]);
}
