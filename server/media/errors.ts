import { AppError } from '../http/errors.js';
import { describeBytes } from './limits.js';

/** The refusals an upload can meet, worded once for every route and store. */
export const uploadErrors = {
  tooLarge: (maxBytes: number) => AppError.tooLarge(`The file is larger than the ${describeBytes(maxBytes)} limit`),
  notMedia: () => AppError.unsupportedMediaType('Only images and videos can be uploaded'),
  empty: () => AppError.badRequest('The upload is empty'),
  expired: () => AppError.forbidden('The upload link has expired'),
  badSignature: () => AppError.forbidden('The upload link is not valid'),
  used: () => AppError.forbidden('The upload link has already been used'),
  gone: () => AppError.forbidden('The upload link is no longer valid'),
  busy: () => AppError.conflict('An upload to this link is already in progress'),
  unknownUpload: () => AppError.notFound('Unknown upload'),
};
