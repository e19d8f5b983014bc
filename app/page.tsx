import { loadConfig, modelStatus } from '@/lib/config';
import { TOOL_REGISTRY } from '@/tools';

export const dynamic = 'force-dynamic';

export default function Home() {
  const config = loadConfig();
  const status = modelStatus(config);
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Agent Studio</h1>
      <p className="mt-2 text-neutral-600 dark:text-neutral-400">
        Qwen-Agent&apos;s reasoning loop and tools, in TypeScript. The chat page arrives next; the agent core runs today
        from <code>npm run agent</code>.
      </p>
      <section aria-label="Model" className="mt-6 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
        <h2 className="font-medium">Model</h2>
        {status.configured ? (
          <p className="mt-1">
            Connected to <code>{status.baseURL ?? 'https://api.openai.com/v1'}</code>, model{' '}
            <code>{status.model ?? '(server default)'}</code>, function calling <code>{config.llm.fncallMode}</code>.
          </p>
        ) : (
          <p className="mt-1">
            No model is configured. Set <code>OPENAI_BASE_URL</code>, <code>OPENAI_API_KEY</code> and{' '}
            <code>OPENAI_MODEL</code> (any OpenAI-compatible server: vLLM, Ollama, llama.cpp, DashScope, OpenAI) and
            restart.
          </p>
        )}
      </section>
      <section aria-label="Tools" className="mt-4 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
        <h2 className="font-medium">Tools</h2>
        <ul className="mt-1 list-inside list-disc">
          {[...TOOL_REGISTRY.keys()].sort().map((name) => (
            <li key={name}>
              <code>{name}</code>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
