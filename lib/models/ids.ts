// A model's id, as the picker lists it and a conversation stores it: "<connection id>/<model name>". Connection ids
// never hold a "/", model names may ("Qwen/Qwen3-8B"), so the id splits at its first "/".

/** The connection made from OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL. */
export const ENV_CONNECTION_ID = 'env';
/** GGUF files under DATA_DIR/models, run by the built-in local model. */
export const LOCAL_CONNECTION_ID = 'local';

/** What the environment's and the local files' connections are called in run-start (the page says them in its
 *  language). */
export const ENV_CONNECTION_NAME = 'Environment';
export const LOCAL_CONNECTION_NAME = 'Local';

export interface ModelRef {
  connectionId: string;
  name: string;
}

export function modelId(connectionId: string, name: string): string {
  return `${connectionId}/${name}`;
}

export function parseModelId(id: string): ModelRef | undefined {
  const at = id.indexOf('/');
  if (at <= 0 || at === id.length - 1) return undefined;
  return { connectionId: id.slice(0, at), name: id.slice(at + 1) };
}
