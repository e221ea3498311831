import { DomainError } from '../../errors.js';
import { describeBytes } from './limits.js';

/** The refusals an upload can meet, worded once for every route and store. */
export const uploadErrors = {
  tooLarge: (maxBytes: number) => DomainError.tooLarge(`The file is larger than the ${describeBytes(maxBytes)} limit`),
  notMedia: () => DomainError.unsupported('Only images and videos can be uploaded'),
  empty: () => DomainError.invalid('The upload is empty'),
  expired: () => DomainError.forbidden('The upload link has expired'),
  badSignature: () => DomainError.forbidden('The upload link is not valid'),
  used: () => DomainError.forbidden('The upload link has already been used'),
  gone: () => DomainError.forbidden('The upload link is no longer valid'),
  busy: () => DomainError.conflict('An upload to this link is already in progress'),
  unknownUpload: () => DomainError.notFound('Unknown upload'),
};
