export { blockedAddressReason, assertAddressAllowed, BlockedAddressError } from './address-policy';
export type { AddressPolicy } from './address-policy';
export { safeFetch, safeRequest, FetchError } from './safe-fetch';
export type { SafeFetchOptions, SafeFetchResponse, SafeRequestOptions, Resolver } from './safe-fetch';
