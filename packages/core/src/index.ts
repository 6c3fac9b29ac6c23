export { ProviderError, type ProviderErrorCode, type ProviderErrorInit } from './errors/provider-error.js';
export { ToolcircuitError } from './errors/toolcircuit-error.js';
export type { JsonObject, JsonValue } from './json.js';
export type {
  AssistantContentPart,
  AssistantMessage,
  JsonContentPart,
  Message,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultContent,
  ToolResultPart,
  UserMessage,
} from './messages.js';
export { toolCallsOf, toolResultText } from './messages.js';
export type {
  Model,
  ModelRequest,
  ModelTurn,
  StopReason,
  ToolChoice,
  ToolDeclaration,
  UnifiedStopReason,
  Usage,
} from './model.js';
export type { ProviderMetadata, ProviderOptions } from './provider-metadata.js';
export type { StreamEvent } from './stream-events.js';
