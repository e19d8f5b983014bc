// The chat application's server side: the service, the registry of runs in progress, the feed, the requests.
export { ChatService, titleFrom, type ChatServiceDeps, type StartedRun } from './service';
export { agentFactory, type AgentFactory } from './agents';
export { InMemoryLiveRuns, type LiveRuns } from './live-runs';
export { liveFeed, runFeed, storedFeed } from './feed';
export { ChatRequestSchema, SendRequestSchema, RequestError, parseRequest, type SendRequest } from './requests';
