#!/usr/bin/env node
// Packs every public workspace package (`pnpm pack` turns workspace:* into versions) into one folder:
//
//   node scripts/pack-public.mjs [--pack-destination <dir>]   (`pnpm pack:public`; default .toolcircuit/packages)
//
// Private packages (the bench, the trace viewer) are skipped by reading their manifests, not by a list of
// names: their prepack guard fails on purpose, and one failure would end a recursive `pnpm -r pack` before
// the packages after it (the CLI among them). Needs `pnpm build` first: the tarballs carry dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every workspace package folder with its manifest, public and private. */
export function workspacePackages() {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .filter((dir) => existsSync(join(root, group, dir, 'package.json')))
      .map((dir) => ({
        dir: `${group}/${dir}`,
        manifest: JSON.parse(readFileSync(join(root, group, dir, 'package.json'), 'utf8')),
      })),
  );
}

/**
 * Packs each public package into `destination`; returns `{ name, dir, manifest, tarball }` per package, the
 * tarball an absolute path.
 */
export function packPublic(destination) {
  mkdirSync(destination, { recursive: true });
  return workspacePackages()
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => {
      const before = new Set(readdirSync(destination));
      const output = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
        cwd: join(root, dir),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // pnpm prints the tarball's path last; a re-pack over an existing file adds no new name.
      const fromOutput = output.trim().split('\n').at(-1)?.trim() ?? '';
      const created = readdirSync(destination).find((name) => !before.has(name));
      const tarball = created !== undefined ? join(destination, created) : resolve(join(root, dir), fromOutput);
      if (!existsSync(tarball)) throw new Error(`pnpm pack in ${dir} printed no tarball path: ${output}`);
      return { name: manifest.name, dir, manifest, tarball };
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = process.argv.indexOf('--pack-destination');
  const destination = resolve(root, flag === -1 ? '.toolcircuit/packages' : (process.argv[flag + 1] ?? ''));
  for (const { name, tarball } of packPublic(destination)) console.log(`${name} → ${tarball}`);
}
