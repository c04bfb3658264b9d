import { randomBytes } from 'node:crypto';

/** A multipart/form-data body with one file part, for `app.inject` (no form library needed). */
export function multipartFile(
  data: Buffer,
  opts: { field?: string; filename?: string; contentType?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fmk${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'photo.jpg'}"\r\n` +
    `Content-Type: ${opts.contentType ?? 'image/jpeg'}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
