import { Messages } from '@fmk/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../errors.ts';

/**
 * The bytes of a photo upload (multipart field "file"), shared by profile and message photos:
 * too large → 413, missing or malformed → 400. Re-encoding is reencodePhoto's job (image.ts).
 */
export async function readPhotoUpload(app: FastifyInstance, req: FastifyRequest, maxPhotoBytes: number): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest(Messages.photoMissing);
  try {
    const part = await req.file();
    if (part?.fieldname !== 'file') throw badRequest(Messages.photoMissing);
    return await part.toBuffer();
  } catch (err) {
    if (err instanceof app.multipartErrors.RequestFileTooLargeError)
      throw new AppError(413, 'too_large', Messages.photoTooLarge(Math.round(maxPhotoBytes / (1024 * 1024))));
    if (err instanceof AppError) throw err;
    // A malformed or cut-off form body is the client's fault, not a server error.
    throw badRequest(Messages.photoMissing);
  }
}
