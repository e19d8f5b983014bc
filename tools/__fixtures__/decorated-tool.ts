// Run with tsx by registry.test.ts: checks the real `@registerTool` decorator syntax (vitest's transform cannot
// lower standard decorators, so this cannot live in a test file).
import { BaseTool } from '../base-tool';
import { registerTool, TOOL_REGISTRY } from '../registry';

@registerTool('decorated_echo')
class DecoratedEcho extends BaseTool {
  name = 'decorated_echo';
  description = 'Echo the text back.';
  parameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  async call(params: string): Promise<string> {
    return this.parseArgs<{ text: string }>(params).text;
  }
}

let duplicate = 'accepted';
try {
  @registerTool('decorated_echo')
  class Again extends DecoratedEcho {}
  void Again;
} catch (err) {
  duplicate = (err as Error).message;
}

const Registered = TOOL_REGISTRY.get('decorated_echo');
const instance = Registered ? new Registered() : undefined;
void (async () => {
  const echoed = instance ? await instance.call('{"text": "hi"}', { files: [], lang: 'en', messages: [] }) : undefined;
  console.log(JSON.stringify({ same: Registered === DecoratedEcho, echoed, duplicate }));
})();
