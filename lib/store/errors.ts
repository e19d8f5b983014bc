// What is not the caller's reads exactly as what does not exist: one error for both, which the HTTP layer answers
// with 404 (an answer that differed would tell that someone else has the object).
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  readonly status = 404;
}
