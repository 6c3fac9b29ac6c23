import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigFileError,
  findApiKey,
  loadConfigFile,
  ModelConfigurationError,
  parseConfig,
  parseModelSpec,
  redactSecrets,
  resolveModelConfig,
} from '../src/index.js';

function problemsOf(value: unknown): { field: string; message: string }[] {
  try {
    parseConfig(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return [...(error as ConfigFileError).problems];
  }
  throw new Error('expected the config to be refused');
}

describe('parseModelSpec', () => {
  it('splits on the first colon only, so model ids may contain colons', () => {
    expect(parseModelSpec('openai:ft:gpt-4o-mini:acme::abc')).toEqual({
      provider: 'openai',
      model: 'ft:gpt-4o-mini:acme::abc',
    });
  });

  it.each(['claude-sonnet-5-5', ':gpt-4o', 'anthropic:', ''])('refuses %j with a typed error', (spec) => {
    expect(() => parseModelSpec(spec)).toThrow(ModelConfigurationError);
    expect(() => parseModelSpec(spec)).toThrow(/provider:model/);
  });

  it('names the providers it knows when the provider is unknown', () => {
    const error = (() => {
      try {
        parseModelSpec('mistral:large');
      } catch (caught) {
        return caught as ModelConfigurationError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.code).toBe('unknown_provider');
    expect(error.message).toContain('anthropic, openai, openai-responses, google, openai-compatible');
  });
});

describe('parseConfig', () => {
  it('accepts a string model and an object model', () => {
    expect(parseConfig({ model: 'google:gemini-2.5-flash', maxTurns: 5 }).maxTurns).toBe(5);
    expect(parseConfig({ model: { provider: 'google', model: 'gemini-2.5-flash', sdk: 'generative-ai' } })).toEqual({
      model: { provider: 'google', model: 'gemini-2.5-flash', sdk: 'generative-ai' },
    });
  });

  it('reports every bad field at once, each with its pointer', () => {
    const problems = problemsOf({ model: { provider: 'mistral', model: '' }, maxTurns: 0, colour: 'red' });
    expect(problems.map((p) => p.field).sort()).toEqual(['/', '/maxTurns', '/model/model', '/model/provider']);
    expect(problems.find((p) => p.field === '/model/provider')?.message).toContain('"anthropic"');
    expect(problems.find((p) => p.field === '/')?.message).toBe('unknown field "colour"');
  });

  it('explains that keys never go in the config file', () => {
    const [problem] = problemsOf({ model: { provider: 'openai', model: 'gpt-5.2', apiKey: 'sk-…' } });
    expect(problem?.field).toBe('/model');
    expect(problem?.message).toMatch(/keys are never read from config/);
  });

  it('rejects a string model that is not provider:model', () => {
    const [problem] = problemsOf({ model: 'gpt-5.2' });
    expect(problem).toEqual({ field: '/model', message: expect.stringContaining('provider:model') });
  });
});

describe('loadConfigFile', () => {
  it('returns undefined for a missing file and a typed error for invalid JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-config-'));
    expect(await loadConfigFile(join(dir, 'toolcircuit.config.json'))).toBeUndefined();
    await writeFile(join(dir, 'bad.json'), '{ "model": ');
    await expect(loadConfigFile(join(dir, 'bad.json'))).rejects.toThrow(/not valid JSON/);
  });
});

describe('resolveModelConfig', () => {
  const config = { model: 'anthropic:claude-sonnet-5-5' } as const;

  it('prefers the explicit model, then TOOLCIRCUIT_MODEL, then the file', () => {
    const env = { TOOLCIRCUIT_MODEL: 'google:gemini-2.5-flash' };
    expect(resolveModelConfig({ model: 'openai:gpt-5.2', config, env }).provider).toBe('openai');
    expect(resolveModelConfig({ config, env }).provider).toBe('google');
    expect(resolveModelConfig({ config, env: {} }).provider).toBe('anthropic');
  });

  it('applies TOOLCIRCUIT_BASE_URL and says how to choose when nothing is chosen', () => {
    expect(resolveModelConfig({ config, env: { TOOLCIRCUIT_BASE_URL: 'http://127.0.0.1:9' } }).baseURL).toBe(
      'http://127.0.0.1:9',
    );
    expect(() => resolveModelConfig({ env: {} })).toThrow(/TOOLCIRCUIT_MODEL/);
  });
});

describe('findApiKey', () => {
  it('reads the usual variable, or the one the config names', () => {
    const env = { GOOGLE_API_KEY: 'g-123456789', MY_KEY: 'k-123456789' };
    expect(findApiKey({ provider: 'google', model: 'm' }, env).envName).toBe('GOOGLE_API_KEY');
    expect(findApiKey({ provider: 'openai', model: 'm', apiKeyEnv: 'MY_KEY' }, env).value).toBe('k-123456789');
  });

  it('names the variable to set, and never the value of another', () => {
    expect(() => findApiKey({ provider: 'anthropic', model: 'm' }, { OPENAI_API_KEY: 'sk-secret-value' })).toThrow(
      /Set ANTHROPIC_API_KEY in the environment/,
    );
  });

  it('redacts keys from text', () => {
    expect(redactSecrets('bad key sk-secret-value here', ['sk-secret-value'])).toBe('bad key [redacted] here');
  });
});

describe('mcpServers in the config file', () => {
  it('takes a command server and a URL server', () => {
    const config = parseConfig({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'server'], passEnv: ['HOME'], pins: 'mcp-fs.tools.json' },
        docs: { url: 'http://127.0.0.1:3000/mcp', transport: 'sse', bearerTokenEnv: 'DOCS_TOKEN' },
      },
    });
    expect(Object.keys(config.mcpServers ?? {})).toEqual(['fs', 'docs']);
  });

  it('refuses a server with both or neither transport, a secret-bearing field and a bad name', () => {
    expect(problemsOf({ mcpServers: { fs: { command: 'node', url: 'http://x' } } })[0]?.field).toBe('/mcpServers/fs');
    expect(problemsOf({ mcpServers: { fs: { args: [] } } }).map((problem) => problem.message)).toContain(
      'missing field "command"',
    );
    expect(problemsOf({ mcpServers: { fs: { command: 'node', env: { TOKEN: 'x' } } } })).toContainEqual({
      field: '/mcpServers/fs',
      message: 'unknown field "env"',
    });
    expect(problemsOf({ mcpServers: { 'bad name': { url: 'http://x' } } })[0]?.field).toBe('/mcpServers');
  });
});
