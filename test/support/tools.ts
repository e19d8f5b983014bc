// Tools used by the integration tests: real BaseTool subclasses declared the way users declare them.
import { BaseTool, BaseToolWithFileAccess, ToolServiceError, type ToolContext } from '../../tools';

export class GetWeather extends BaseTool {
  name = 'get_weather';
  description = 'Current weather for a city';
  parameters = {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  };
  calls: Record<string, unknown>[] = [];
  async call(params: string) {
    const args = this.parseArgs<{ city: string }>(params);
    this.calls.push(args);
    return `${args.city}: 21°C, sunny`;
  }
}

export class Boom extends BaseTool {
  name = 'boom';
  description = 'Always fails';
  parameters = { type: 'object', properties: {} };
  async call(): Promise<string> {
    throw new RangeError('the gauge broke');
  }
}

export class Fatal extends BaseTool {
  name = 'fatal';
  description = 'Aborts the run';
  parameters = { type: 'object', properties: {} };
  async call(): Promise<string> {
    throw new ToolServiceError('the document service is down');
  }
}

export class Structured extends BaseTool {
  name = 'structured';
  description = 'Returns an object';
  parameters = { type: 'object', properties: {} };
  async call() {
    return { city: '北京', temps: [1, 2] };
  }
}

export class SeeFiles extends BaseToolWithFileAccess {
  name = 'see_files';
  description = 'Lists the files it was given';
  parameters = { type: 'object', properties: {} };
  seen: string[] = [];
  async call(_params: string, ctx: ToolContext) {
    this.seen = ctx.files;
    return ctx.files.join('\n');
  }
}
