/**
 * The CLI runs from the JavaScript build of the sources (main/build/javascript.ts), made on its first run and again
 * when the sources change. Each test works on a copy of the project's sources in a temp folder, with the project's
 * node_modules linked beside them and, where it says so, a copy of the project's own build of the same sources
 * (a first build transpiles every file, which takes seconds), and runs the copy's real bin.js.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildJavaScript } from '../../../main/build/javascript.ts';
import { tempDir } from '../../helpers/temp.ts';

const PROJECT = fileURLToPath(new URL('../../../', import.meta.url));
const HELP_LINE = 'mpi-console — master patient index engine';

async function projectCopy(options: { readonly built: boolean }): Promise<string> {
  const dir = tempDir();
  for (const part of ['engine', 'console-protocol', 'main', 'package.json'])
    cpSync(join(PROJECT, part), join(dir, part), { recursive: true });
  symlinkSync(join(PROJECT, 'node_modules'), join(dir, 'node_modules'));
  if (options.built) {
    const build = (await buildJavaScript()).dir;
    const name = basename(build);
    cpSync(build, join(dir, 'dist', 'js', name), { recursive: true });
    writeFileSync(join(dir, 'dist', 'js', 'latest'), name);
  }
  return dir;
}

function help(project: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(project, 'main', 'cli', 'bin.js'), '--help'], { cwd: project });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

function builds(project: string): string[] {
  return readdirSync(join(project, 'dist', 'js')).filter((name) => name !== 'latest');
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe('the JavaScript build the CLI runs from', () => {
  it('is used as it is while the sources are unchanged, and made again with only the changed files new', async () => {
    const project = await projectCopy({ built: true });
    const [build = ''] = builds(project);
    // The run loads the build, not the sources: a change made to the built file shows.
    edit(join(project, 'dist', 'js', build, 'main', 'cli', 'main.js'), HELP_LINE, 'mpi-console — as built');
    const first = await help(project);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('mpi-console — as built');
    expect(builds(project)).toEqual([build]);

    // A changed source makes a new build beside the old; files that did not change are the same files (hard links).
    edit(join(project, 'main', 'cli', 'main.ts'), HELP_LINE, `${HELP_LINE} (edited)`);
    const second = await help(project);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain(`${HELP_LINE} (edited)`);
    const [next = ''] = builds(project).filter((name) => name !== build);
    expect(builds(project).sort()).toEqual([build, next].sort());
    const inode = (dir: string, path: string): number => statSync(join(project, 'dist', 'js', dir, path)).ino;
    expect(inode(next, 'engine/index.js')).toBe(inode(build, 'engine/index.js'));
    expect(inode(next, 'main/cli/main.js')).not.toBe(inode(build, 'main/cli/main.js'));

    // A change to the build code itself is built by the new code, loaded from its source.
    edit(join(project, 'main', 'build', 'javascript.ts'), 'const KEEP = 3;', 'const KEEP = 3; // edited');
    const third = await help(project);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain(`${HELP_LINE} (edited)`);
    const latest = readFileSync(join(project, 'dist', 'js', 'latest'), 'utf8');
    expect(readFileSync(join(project, 'dist', 'js', latest, 'main', 'build', 'javascript.js'), 'utf8')).toContain(
      'const KEEP = 3; // edited',
    );
    expect(builds(project)).toHaveLength(3);
    // Nothing is linked from a build the old build code made: how each file is transpiled is that code's choice.
    expect(inode(latest, 'engine/index.js')).not.toBe(inode(next, 'engine/index.js'));
  });

  it('made by two runs at once, is one complete build, and both runs answer', async () => {
    const project = await projectCopy({ built: true });
    const [old = ''] = builds(project);
    edit(join(project, 'engine', 'index.ts'), '\n', '\n// edited\n');
    const runs = await Promise.all([help(project), help(project)]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(HELP_LINE);
    }
    // Both built the same sources; one build was renamed into place, the other was dropped, nothing half made is left.
    const [build = ''] = builds(project).filter((name) => name !== old);
    expect(builds(project).sort()).toEqual([old, build].sort());
    expect(existsSync(join(project, 'dist', 'js', build, '.build-inputs.json'))).toBe(true);
    expect(readFileSync(join(project, 'dist', 'js', build, 'engine', 'index.js'), 'utf8')).toContain('// edited');
  });

  it('when it cannot be made, the CLI says so and runs from the sources', async () => {
    const project = await projectCopy({ built: false });
    writeFileSync(join(project, 'dist'), 'a file where the build folder would go');
    const run = await help(project);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(HELP_LINE);
    expect(run.stderr).toMatch(
      /^mpi-console: the JavaScript build in dist\/js could not be made \(.+\); running from the TypeScript sources, slower to start\.\n$/,
    );
  });
});
