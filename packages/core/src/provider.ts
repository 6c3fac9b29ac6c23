// `@toolcircuit/core/provider`: the part of core a provider adapter is built from (typed errors, request-body
// text reuse, result-content conversions, transport checks, message helpers). The same objects as the main
// entry exports (both entries share one chunk), so `instanceof` holds across them; importing this entry
// alone compiles a tenth of core, which keeps an adapter's cold import close to its SDK's own. Types come
// from `@toolcircuit/core`.
export { descriptionWithExamples } from './catalogue/provider-features.js';
export { describeMedia } from './content/describe-media.js';
export { mediaBase64, mediaDataUrl, mediaText } from './content/media-data.js';
export { isAudioMediaType } from './content/media-part.js';
export { mediaPartChange, recordResultContentChanges } from './content/result-content-change.js';
export { resultPartKindOf } from './content/result-coverage.js';
export { abortedProviderError } from './errors/aborted-provider-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { invalidResponseError } from './errors/invalid-response-error.js';
export { ProviderError } from './errors/provider-error.js';
export { streamInterruptedError } from './errors/stream-interrupted-error.js';
export { ToolcircuitError } from './errors/toolcircuit-error.js';
export { unsupportedCallError } from './errors/unsupported-call-error.js';
export { isEventStream } from './http/is-event-stream.js';
export { isTransportFailure } from './http/is-transport-failure.js';
export { retryAfterMs } from './http/retry-after.js';
export { cachedConversion } from './json/cached-conversion.js';
export {
  sealEachForReuse,
  sealForReuse,
  stringifyRequestArray,
  stringifyRequestBody,
} from './json/cached-json-text.js';
export { toolCallsOf, toolResultText } from './messages/messages.js';
export { textRangeOfCodePoints, textRangeOfUtf8Bytes } from './messages/text-ranges.js';
export { untrustedContentOf } from './messages/untrusted-content.js';
export { answerToolRequest } from './output/answer-tool.js';
export { finalAnswerEvents, finalAnswerTurn } from './output/final-answer-turn.js';
