export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  McpConnection,
  type McpElicitation,
  type McpToolDefinition,
  type McpToolMetadata,
} from './connect-mcp-server.js';
export type { McpEra, McpProtocolMode } from './era/protocol-mode.js';
export type { StdioServing } from './era/serve-stdio-both-eras.js';
export { InvalidMcpServerError } from './errors/invalid-mcp-server-error.js';
export { type McpCallResult, type McpContentBlock, mapMcpResult } from './map-mcp-result.js';
export type { McpDefinitionChange, McpEvent } from './mcp-events.js';
export type { McpHttpServer, McpServerSpec, McpStdioServer } from './mcp-server-spec.js';
export {
  type McpClientIdentity,
  type ServeCatalogueOptions,
  type ServedCatalogue,
  serveCatalogue,
} from './serve-catalogue.js';
export { type HttpCatalogueServer, type ServeHttpOptions, serveCatalogueHttp } from './serve-http.js';
export { InMemoryMcpTaskStore, type McpTaskStore } from './tasks/mcp-task-store.js';
export { toMcpResult } from './to-mcp-result.js';
export { toolFingerprint } from './tool-fingerprint.js';
export {
  defaultToolPolicy,
  type McpToolAnnotations,
  type McpToolInfo,
  type McpToolPolicy,
  type McpToolPolicyContext,
  type McpToolPolicyDecision,
} from './tool-policy.js';
