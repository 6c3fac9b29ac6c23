export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  McpConnection,
  type McpElicitation,
  type McpToolDefinition,
  type McpToolMetadata,
} from './connect-mcp-server.js';
export { InvalidMcpServerError } from './errors/invalid-mcp-server-error.js';
export { type McpCallResult, type McpContentBlock, mapMcpResult } from './map-mcp-result.js';
export type { McpDefinitionChange, McpEvent } from './mcp-events.js';
export type { McpHttpServer, McpServerSpec, McpStdioServer } from './mcp-server-spec.js';
export { toolFingerprint } from './tool-fingerprint.js';
export {
  defaultToolPolicy,
  type McpToolAnnotations,
  type McpToolInfo,
  type McpToolPolicy,
  type McpToolPolicyContext,
  type McpToolPolicyDecision,
} from './tool-policy.js';
