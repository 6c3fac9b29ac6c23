import { createRequire } from 'node:module';
import type * as GenerativeAi from '@google/generative-ai';
import { GoogleConfigurationError } from './google-configuration-error.js';

const PACKAGE = '@google/generative-ai';

/**
 * Loads the archived `@google/generative-ai` SDK when a model asks for it (`sdk: 'generative-ai'`). It is an
 * optional peer dependency: most applications use `@google/genai` and should not install an archived SDK
 * for nothing. Loaded synchronously (model creation is synchronous) through `require`, which the SDK
 * supports; its error classes are then matched by name, not identity (see map-google-error.ts), so a
 * client the application built from the SDK's ESM entry is handled the same.
 */
export function loadGenerativeAi(): typeof GenerativeAi {
  try {
    return createRequire(import.meta.url)(PACKAGE) as typeof GenerativeAi;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new GoogleConfigurationError(
      'sdk_missing',
      'sdk',
      `google: sdk 'generative-ai' needs the package ${PACKAGE}, which is not installed. Install it (npm install ${PACKAGE}), or use the default sdk 'genai' (@google/genai).`,
    );
  }
}
