export { blockedAddressReason, assertAddressAllowed, BlockedAddressError } from './address-policy';
export type { AddressPolicy } from './address-policy';
export { safeFetch, FetchError } from './safe-fetch';
export type { SafeFetchOptions, SafeFetchResponse, Resolver } from './safe-fetch';
