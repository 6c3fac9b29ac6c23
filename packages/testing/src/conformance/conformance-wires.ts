import type { CassetteProtocol } from '../cassettes/cassette.js';
import { anthropicConformanceWire } from './anthropic-conformance-wire.js';
import type { ConformanceWire } from './conformance-wire.js';
import { geminiConformanceWire } from './gemini-conformance-wire.js';
import { openaiChatConformanceWire } from './openai-chat-conformance-wire.js';
import { openaiResponsesConformanceWire } from './openai-responses-conformance-wire.js';

const WIRES: Readonly<Record<CassetteProtocol, ConformanceWire>> = {
  'anthropic-messages': anthropicConformanceWire,
  'openai-chat': openaiChatConformanceWire,
  'openai-responses': openaiResponsesConformanceWire,
  gemini: geminiConformanceWire,
};

/** Every protocol the suite covers, in a fixed order (cassette generation iterates it). */
export const CONFORMANCE_PROTOCOLS: readonly CassetteProtocol[] = [
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini',
];

export function conformanceWireOf(protocol: CassetteProtocol): ConformanceWire {
  return WIRES[protocol];
}
