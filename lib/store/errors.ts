// What is not the caller's reads exactly as what does not exist: one error for both, which the HTTP layer answers
// with 404 (an answer that differed would tell that someone else has the object). Coded, so the page can say it in
// its language.
import { CodedError, type ErrorCode, type ErrorValues } from '../protocol/errors';

export class NotFoundError extends CodedError {
  override name = 'NotFoundError';
  constructor(message: string, code: ErrorCode = 'not-found', values?: ErrorValues) {
    super(code, message, values, 404);
  }
}
