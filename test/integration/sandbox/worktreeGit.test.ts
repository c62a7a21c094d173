import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees, type HelperWorktree } from '../../../main/helpers/git';
import { linkedWorktreeGitPaths, linkedWorktreePointers } from '../../../main/sandbox/worktreeGitPaths';
import { WorkspaceSandbox } from '../../../main/sandbox/workspaceSandbox';
import { runInPty } from '../../../main/tools/bash';
import { cleanupRepos, makeRepo, type GitFixture } from '../helpers/gitFixture';
import { sandboxWorksHere } from '../../support/sandboxProbe';

// Git inside a helper's own sandbox: its worktree's `.git` is a file naming
// <repo>/.git/worktrees/<name>, and a commit writes objects and refs in <repo>/.git, outside the
// worktree. Those may be written; the repository's hooks and config may not, as in the folder.

const works = await sandboxWorksHere('git in a helper worktree’s sandbox');

const sandboxes: WorkspaceSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.dispose()));
  cleanupRepos();
});

async function helperInSandbox(): Promise<{ repo: GitFixture; wt: HelperWorktree; sandbox: WorkspaceSandbox }> {
  const repo = makeRepo();
  const wt = await new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir }).create('helper-1');
  const sandbox = new WorkspaceSandbox({ workspace: wt.path, dataDir: repo.dataDir, setting: 'required', scratchRoot: path.join(repo.dataDir, 'scratch') });
  sandboxes.push(sandbox);
  expect(await sandbox.start()).toMatchObject({ state: 'on' });
  return { repo, wt, sandbox };
}

async function run(sandbox: WorkspaceSandbox, command: string): Promise<string> {
  const wrapped = await sandbox.wrap(command, 'session-1');
  try {
    const result = await runInPty(command, {
      cwd: sandbox.workspace,
      timeoutMs: 20_000,
      env: wrapped.env,
      invocation: { file: wrapped.file, args: wrapped.args, name: 'bash' },
    });
    return result.output.text;
  } finally {
    await wrapped.done();
  }
}

const helperGit = 'git -c user.name=Helper -c user.email=helper@keel.invalid';

describe('what git may write from a linked worktree', () => {
  it('its admin folder, the objects, refs and reflogs: never the .git folder itself', async () => {
    const repo = makeRepo();
    const wt = await new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir }).create('helper-1');
    const dotGit = path.join(repo.repo, '.git');
    expect(linkedWorktreeGitPaths(wt.path)).toEqual([
      path.join(dotGit, 'worktrees', 'helper-1'),
      path.join(dotGit, 'objects'),
      path.join(dotGit, 'refs'),
      path.join(dotGit, 'logs'),
    ]);
    // A `.git` file pointing elsewhere (written by an agent to widen its next sandbox) gives nothing.
    const forged = path.join(repo.dataDir, 'forged');
    mkdirSync(forged);
    writeFileSync(path.join(forged, '.git'), `gitdir: ${path.join(dotGit, 'worktrees', 'helper-1')}\n`);
    expect(linkedWorktreeGitPaths(forged)).toEqual([]);
    writeFileSync(path.join(forged, '.git'), `gitdir: ${repo.dataDir}\n`);
    expect(linkedWorktreeGitPaths(forged)).toEqual([]);
    // The folder itself, and a folder that is no repository: nothing more than the workspace.
    expect(linkedWorktreeGitPaths(repo.repo)).toEqual([]);
    expect(linkedWorktreeGitPaths(path.dirname(repo.repo))).toEqual([]);
  });
});

describe.runIf(works)('git in a helper worktree’s sandbox', { timeout: 60_000 }, () => {
  it('git add and git commit work; the commit is in the worktree, the person’s branch unmoved', async () => {
    const { repo, wt, sandbox } = await helperInSandbox();
    const mainBefore = repo.git('rev-parse', 'main').trim();
    writeFileSync(path.join(wt.path, 'made-by-helper.txt'), 'helper\n');

    const output = await run(sandbox, `${helperGit} add made-by-helper.txt && ${helperGit} commit -q -m "helper's commit" && echo COMMITTED`);

    expect(output).toContain('COMMITTED');
    expect(repo.git('-C', wt.path, 'log', '-1', '--format=%s').trim()).toBe("helper's commit");
    expect(repo.git('rev-parse', 'main').trim()).toBe(mainBefore);
    // Keel still sees what it changed against the folder it started from.
    expect(await new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir }).changedFiles(wt)).toEqual(['made-by-helper.txt']);
  });

  it('git add -A takes the helper’s files, not the sandbox’s placeholders, and keeps the person’s excludes', async () => {
    const { repo, wt, sandbox } = await helperInSandbox();
    // The person's own excludes file, named in the repository's config.
    writeFileSync(path.join(repo.dataDir, 'person-excludes'), '*.secret-notes\n');
    repo.git('config', 'core.excludesFile', path.join(repo.dataDir, 'person-excludes'));
    writeFileSync(path.join(wt.path, 'made-by-helper.txt'), 'helper\n');
    writeFileSync(path.join(wt.path, 'mine.secret-notes'), 'not for git\n');

    const output = await run(sandbox, `${helperGit} add -A && ${helperGit} commit -q -m "all of it" && echo COMMITTED`);

    expect(output).toContain('COMMITTED');
    expect(repo.git('-C', wt.path, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual(['made-by-helper.txt']);
    expect(repo.git('-C', wt.path, 'status', '--porcelain')).toBe('');
  });

  it('git add -A works in the folder’s own sandbox too (a plain repository)', async () => {
    const repo = makeRepo();
    const sandbox = new WorkspaceSandbox({ workspace: repo.repo, dataDir: repo.dataDir, setting: 'required', scratchRoot: path.join(repo.dataDir, 'scratch') });
    sandboxes.push(sandbox);
    expect(await sandbox.start()).toMatchObject({ state: 'on' });
    repo.write('by-agent.txt', 'agent\n');

    const output = await run(sandbox, `${helperGit} add -A && ${helperGit} commit -q -m "agent's" && echo COMMITTED`);

    expect(output).toContain('COMMITTED');
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe('by-agent.txt');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('the repository’s hooks and config stay unwritable', async () => {
    const { repo, sandbox } = await helperInSandbox();
    const dotGit = path.join(repo.repo, '.git');
    const configBefore = readFileSync(path.join(dotGit, 'config'), 'utf8');

    const output = await run(
      sandbox,
      [
        `(echo '[core] fsmonitor = evil' >> ${dotGit}/config && echo CONFIG-WRITTEN || echo CONFIG-REFUSED)`,
        `(echo evil > ${dotGit}/hooks/post-checkout && echo HOOK-WRITTEN || echo HOOK-REFUSED)`,
        `(${helperGit} config core.fsmonitor evil && echo GIT-CONFIG-WRITTEN || echo GIT-CONFIG-REFUSED)`,
      ].join('; '),
    );

    expect(output).toContain('CONFIG-REFUSED');
    expect(output).toContain('HOOK-REFUSED');
    expect(output).toContain('GIT-CONFIG-REFUSED');
    expect(readFileSync(path.join(dotGit, 'config'), 'utf8')).toBe(configBefore);
    expect(existsSync(path.join(dotGit, 'hooks', 'post-checkout'))).toBe(false);
  });

  it('cannot repoint the worktree at another repository (whose config Keel’s own git calls would read)', async () => {
    const { repo, wt, sandbox } = await helperInSandbox();
    const admin = path.join(repo.repo, '.git', 'worktrees', 'helper-1');
    expect(linkedWorktreePointers(wt.path)).toEqual([path.join(wt.path, '.git'), path.join(admin, 'commondir'), path.join(admin, 'gitdir')]);
    const before = [path.join(wt.path, '.git'), path.join(admin, 'commondir')].map((file) => readFileSync(file, 'utf8'));
    const evil = path.join(wt.path, 'evil-git');

    const output = await run(
      sandbox,
      [
        `mkdir -p ${evil} && printf '[filter "x"]\n\tclean = touch /tmp/keel-escaped\n' > ${evil}/config`,
        `(echo "gitdir: ${evil}" > .git && echo DOTGIT-WRITTEN || echo DOTGIT-REFUSED)`,
        `(echo ${evil} > ${admin}/commondir && echo COMMONDIR-WRITTEN || echo COMMONDIR-REFUSED)`,
        `(rm -f ${admin}/commondir && echo COMMONDIR-REMOVED || echo COMMONDIR-KEPT)`,
        `(${helperGit} status --short >/dev/null && echo GIT-STILL-WORKS)`,
      ].join('; '),
    );

    expect(output).toContain('DOTGIT-REFUSED');
    expect(output).toContain('COMMONDIR-REFUSED');
    expect(output).toContain('COMMONDIR-KEPT');
    expect(output).toContain('GIT-STILL-WORKS');
    expect([path.join(wt.path, '.git'), path.join(admin, 'commondir')].map((file) => readFileSync(file, 'utf8'))).toEqual(before);
  });
});
