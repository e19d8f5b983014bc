// Types of exposure.mjs (plain JavaScript shared with scripts/start.mjs).
export function bareHost(name: string): string;
export function hostNameOf(value: string): string;
export function isLoopbackName(name: string): boolean;
export function isLoopbackAddress(address: string): boolean;
export const MIN_ACCESS_TOKEN_LENGTH: number;
export function accessTokenProblem(token: string | undefined): string | null;
export const HOW_TO_TOKEN: string;
export function exposureDecision(input: {
  listenHost: string | undefined;
  accessToken: string | undefined;
  auth: string | undefined;
  publicUrl: string | undefined;
  allowedHosts?: string[];
}): { problem: string | null; accounts: boolean; notice: string | null };
export function exposureReasons(input: {
  listenHost: string | undefined;
  publicUrl: string | undefined;
  allowedHosts?: string[];
}): string[];
