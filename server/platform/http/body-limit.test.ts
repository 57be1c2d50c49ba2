import { describe, expect, it } from 'vitest';
import { announcesBody } from './body-limit.ts';

describe('announcesBody', () => {
  it('is a length above zero or any transfer coding', () => {
    expect(announcesBody({ contentLength: '1', transferEncoding: undefined })).toBe(true);
    expect(announcesBody({ contentLength: undefined, transferEncoding: 'chunked' })).toBe(true);
    expect(announcesBody({ contentLength: '0', transferEncoding: 'chunked' })).toBe(true);
  });

  it('is not a missing or zero length', () => {
    expect(announcesBody({ contentLength: undefined, transferEncoding: undefined })).toBe(false);
    expect(announcesBody({ contentLength: '0', transferEncoding: undefined })).toBe(false);
    expect(announcesBody({ contentLength: '000', transferEncoding: undefined })).toBe(false);
  });
});
