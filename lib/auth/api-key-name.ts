// The longest API key name, here apart from lib/auth/api-keys.ts (node:crypto) so the page's field can read it too.

/** The longest key name (as an agent's): the server refuses longer rather than cutting it; the field stops there. */
export const MAX_KEY_NAME_LENGTH = 60;
