import type { ModelRequest } from '@toolcircuit/core';
import type { ToolNameMap } from '@toolcircuit/schema';
import { convertToGoogleMessages } from './convert-to-google-messages.js';
import type { GeminiRequest } from './google-api.js';
import type { GoogleBinding } from './google-binding.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';
import { type GoogleStructuredOutput, googleOutput } from './google-output-format.js';
import { type GoogleToolPreparer, googleHostedTool } from './google-prepare-tools.js';
import type { ParseGoogleResponseOptions } from './parse-google-response.js';
import { requestContentsSeed } from './request-contents-seed.js';

export interface BuiltGoogleRequest {
  readonly body: GeminiRequest;
  /** What parsing the answer needs: the name map back, and the id seed. */
  readonly parse: ParseGoogleResponseOptions;
  /** The answer tool's name, when a run's structured answer travels as one (see `googleOutput`). */
  readonly answerTool?: string;
}

/** A neutral request → the Gemini request body (shared by generate and stream). */
export function buildGoogleRequest(
  neutral: ModelRequest,
  binding: Pick<GoogleBinding, 'functionResponseRole'>,
  tools: GoogleToolPreparer,
  structuredOutput: GoogleStructuredOutput = 'tool',
): BuiltGoogleRequest {
  // A run's structured answer: JSON mode, or an answer tool added to the request.
  const output = googleOutput(neutral, structuredOutput);
  const { request } = output;
  const prepared = tools.prepare(request.tools, request.toolChoice);
  const messages = convertToGoogleMessages({
    system: request.system,
    messages: request.messages,
    functionResponseRole: binding.functionResponseRole,
    toProviderName: (name) => mapName(prepared.nameMap, 'toProvider', name),
    // The history's earlier messages are then reused without mapping their calls' names again.
    namingKey: prepared.nameMap.key,
  });
  const body: GeminiRequest = { contents: messages.contents };
  if (messages.systemInstruction !== undefined) body.systemInstruction = messages.systemInstruction;
  const hosted = (request.hostedTools ?? []).flatMap(googleHostedTool);
  if (prepared.tools !== undefined || hosted.length > 0) body.tools = [...(prepared.tools ?? []), ...hosted];
  if (prepared.toolConfig !== undefined) body.toolConfig = prepared.toolConfig;
  if (request.temperature !== undefined || request.maxOutputTokens !== undefined) {
    body.generationConfig = {
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    };
  }
  if (output.jsonMode !== undefined) body.generationConfig = { ...body.generationConfig, ...output.jsonMode };
  const extraBody = request.providerOptions?.[GOOGLE_PROVIDER];
  if (extraBody !== undefined) body.extraBody = extraBody;
  return {
    body,
    ...(output.answerTool === undefined ? {} : { answerTool: output.answerTool }),
    parse: {
      requestSeed: requestContentsSeed(body.contents),
      fromProviderName: (name) => mapName(prepared.nameMap, 'fromProvider', name),
      restoreInput: prepared.restoreInput,
    },
  };
}

/**
 * A name outside the current catalogue (a tool removed since an earlier turn, or one the model made up)
 * is passed through as it is: the executor then reports it as an unknown tool, which the model can read.
 */
function mapName(nameMap: ToolNameMap, direction: 'toProvider' | 'fromProvider', name: string): string {
  try {
    return nameMap[direction](name);
  } catch {
    return name;
  }
}
