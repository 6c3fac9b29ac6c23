export type { McpRoot } from './client-roots.js';
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
export { McpAuthorizationError } from './errors/mcp-authorization-error.js';
export { type McpCallResult, type McpContentBlock, mapMcpResult } from './map-mcp-result.js';
export type { McpDefinitionChange, McpEvent } from './mcp-events.js';
export type { McpHttpServer, McpServerSpec, McpStdioServer } from './mcp-server-spec.js';
export { FileOAuthStore } from './oauth/file-oauth-store.js';
export {
  type LoopbackAuthorizer,
  type LoopbackAuthorizerOptions,
  startLoopbackAuthorizer,
} from './oauth/loopback-authorizer.js';
export type { McpAuthorizer, McpOAuthOptions } from './oauth/mcp-oauth-options.js';
export { InMemoryOAuthStore, type McpOAuthRecord, type McpOAuthStore } from './oauth/oauth-store.js';
export {
  type BearerAuthenticateOptions,
  bearerAuthenticate,
  type IntrospectTokenOptions,
  introspectToken,
  type VerifiedToken,
} from './serve-auth/bearer-authenticate.js';
export type { ProtectedResourceOptions } from './serve-auth/protected-resource.js';
export {
  type McpClientIdentity,
  type ServeCatalogueOptions,
  type ServedCatalogue,
  serveCatalogue,
} from './serve-catalogue.js';
export { type HttpCatalogueServer, type ServeHttpOptions, serveCatalogueHttp } from './serve-http.js';
export type { ServedCall } from './served/served-call.js';
export { servedCallOf } from './served/served-call.js';
export type { ServedPrompt } from './served/served-prompts.js';
export type {
  ServedCompletion,
  ServedRequestContext,
  ServedResource,
  ServedResourceContents,
  ServedResourceTemplate,
} from './served/served-resources.js';
export type { ServedToolExtras } from './served/served-tool-listing.js';
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
