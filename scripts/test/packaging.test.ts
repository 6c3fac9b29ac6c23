import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What an outside project gets from the registry (the full install is scripts/pack-smoke.mjs, run in CI):
// these are the manifest rules that keep it small, single-copy and publishable.
const root = fileURLToPath(new URL('../..', import.meta.url));
interface Manifest {
  name: string;
  private?: boolean;
  license?: string;
  files?: string[];
  engines?: Record<string, string>;
  repository?: unknown;
  homepage?: unknown;
  bugs?: unknown;
  keywords?: string[];
  publishConfig?: { access?: string; provenance?: boolean };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const packages = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group)).map((dir) => ({
    dir: join(group, dir),
    manifest: JSON.parse(readFileSync(join(root, group, dir, 'package.json'), 'utf8')) as Manifest,
  })),
);
const published = packages.filter(({ manifest }) => manifest.private !== true);
const SDKS = ['@anthropic-ai/sdk', 'openai', '@google/genai', '@google/generative-ai'];
const OPTIONAL = ['better-sqlite3', 'pg', '@google/generative-ai'];

describe('published packages', () => {
  it.each(published.map(({ dir, manifest }) => [manifest.name, dir, manifest] as const))(
    '%s is publishable: files, LICENSE, licence, keywords, engines, public provenance',
    (_name, dir, manifest) => {
      expect(manifest.files).toContain('dist');
      expect(manifest.files).toContain('LICENSE');
      expect(existsSync(join(root, dir, 'LICENSE'))).toBe(true);
      // MIT for the package's own code, joined by the licence of any third-party data it ships (checked
      // file by file in published-tarballs.test.ts).
      expect(manifest.license).toMatch(/^MIT( AND [\w.-]+)*$/);
      expect(manifest.keywords).toContain('toolcircuit');
      expect(manifest.keywords?.length).toBeGreaterThanOrEqual(4);
      expect(manifest.engines?.['node']).toMatch(/^>=20\.19/);
      expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
    },
  );

  it.each(published.map(({ manifest }) => [manifest.name, manifest] as const))(
    '%s: provider SDKs only as peers with a range, native and optional drivers never as dependencies',
    (_name, manifest) => {
      for (const sdk of SDKS) {
        expect(manifest.dependencies?.[sdk], sdk).toBeUndefined();
        const range = manifest.peerDependencies?.[sdk];
        if (range !== undefined) expect(range, sdk).toMatch(/^\^|^>=/);
      }
      for (const name of OPTIONAL) {
        expect(manifest.dependencies?.[name], name).toBeUndefined();
        if (manifest.peerDependencies?.[name] !== undefined) {
          expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
        }
      }
    },
  );

  it('no manifest carries a placeholder address: a real URL or none (repository, homepage, bugs)', () => {
    for (const { manifest } of packages) {
      const text = JSON.stringify([manifest.repository, manifest.homepage, manifest.bugs]);
      expect(text, manifest.name).not.toMatch(/example\.(invalid|com|org)|localhost/);
    }
    // No public address of the repository is known yet: the fields stay out until there is one.
    for (const { manifest } of published) {
      expect([manifest.repository, manifest.homepage, manifest.bugs], manifest.name).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    }
  });

  it('the bench app is private and refuses to be packed', () => {
    const bench = packages.find(({ manifest }) => manifest.name === '@toolcircuit/bench')?.manifest;
    expect(bench?.private).toBe(true);
    expect(bench?.scripts?.['prepack']).toMatch(/process\.exit\(1\)/);
  });

  it('the clone runs the CLI with `pnpm exec toolcircuit` (root devDependency on the workspace CLI)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.devDependencies?.['@toolcircuit/cli']).toBe('workspace:*');
  });

  it('CI installs the packed tarballs and runs the README example', () => {
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/^node scripts\/pack-smoke\.mjs$/m);
  });
});
