import { dirname, resolve } from 'node:path';
import { CONFIG_FILE_NAME, loadConfigFile, type ToolcircuitConfig } from '@toolcircuit/config';
import { UsageError } from '../errors/usage-error.js';

export interface LoadedConfig {
  readonly config: ToolcircuitConfig | undefined;
  /** The folder paths in the config are relative to. */
  readonly directory: string;
}

/**
 * `--config <file>` (which must exist), else `toolcircuit.config.json` in the working directory (optional).
 * A file that exists but is invalid throws ConfigFileError, naming every bad field.
 */
export async function loadCliConfig(cwd: string, flag: string | undefined): Promise<LoadedConfig> {
  const file = resolve(cwd, flag ?? CONFIG_FILE_NAME);
  const config = await loadConfigFile(file);
  if (config === undefined && flag !== undefined) {
    throw new UsageError(
      `config file ${flag} does not exist.`,
      `Check the path, or leave --config out to use ./${CONFIG_FILE_NAME}.`,
    );
  }
  return { config, directory: dirname(file) };
}
