export type {
  Cassette,
  CassetteProtocol,
  CassetteProvenance,
  Interaction,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
  SseEvent,
} from './cassette.js';
export {
  defaultMatch,
  REPLAY_MISMATCH_STATUS,
  type ReceivedRequest,
  type ReplayMismatch,
  type ReplayOptions,
  type ReplayServer,
  startReplayServer,
} from './replay-server.js';
