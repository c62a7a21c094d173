import { appendFileSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptRecordSchema } from '../../../main/session/transcriptRecords';
import { readTranscript } from '../../../main/session/transcript';
import { timelineFromRecords } from '../../../main/session/timeline';
import { WorkspaceSession } from '../../../main/session/workspaceSession';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'keel-records-')));
  folders.push(folder);
  return folder;
}

describe('transcript records', () => {
  it('every record the session writes reads back with its schema', () => {
    const session = WorkspaceSession.open(tempFolder(), tempFolder());
    session.recordTask({ event: 'start', taskId: 't1', text: 'Plan it' });
    session.appendMessage({ role: 'user', content: [{ type: 'text', text: 'Plan it' }] });
    session.plan.propose([{ content: 'Read', status: 'in_progress' }, { content: 'Write' }], { source: 'agent' });
    session.plan.propose(
      [
        { id: '1', content: 'Read', status: 'completed' },
        { id: '2', content: 'Write' },
      ],
      { source: 'user' },
    );
    session.planView.markSeen(2);
    session.recordNotice('plan_update', 'The person changed the plan.');
    session.recordUsage({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheCreationTokens: 0 });
    session.setApprovalMode('ask');
    session.allowForSession('command:npm');
    session.recordTask({ event: 'queued', id: 'm1', text: 'And then?' });
    session.recordTask({ event: 'queue_taken', ids: ['m1'] });
    session.recordTask({ event: 'approval', tool: 'bash', toolUseId: 'toolu_1', decision: 'allow' });
    session.applyCompaction(
      { info: { id: 'c1', stage: 'cleared', reason: 'manual', beforeTokens: 100, afterTokens: 50, clearedResults: 0, summarizedMessages: 0 }, cleared: [] },
      session.messages,
    );
    session.recordTask({ event: 'end', taskId: 't1', outcome: 'done', openSteps: 1 });
    session.close();

    const lines = readFileSync(session.transcriptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    const types = lines.map((line) => {
      const parsed = TranscriptRecordSchema.safeParse(line);
      expect(parsed.error, JSON.stringify(line)).toBeUndefined();
      return parsed.data?.type;
    });
    expect(new Set(types)).toEqual(
      new Set(['session', 'task', 'message', 'plan', 'plan_seen', 'notice', 'usage', 'approval_mode', 'approval_rule', 'compaction']),
    );
    expect(readTranscript(session.transcriptPath).warnings).toEqual([]);
  });

  it('a record of the wrong shape is skipped where it is read, with a warning, and the file is left as it was', () => {
    const dataDir = tempFolder();
    const session = WorkspaceSession.open(dataDir, tempFolder());
    session.appendMessage({ role: 'user', content: [{ type: 'text', text: 'Hello' }] });
    const path = session.transcriptPath;
    session.close();
    const at = new Date().toISOString();
    // A text block without its text, and an end record whose outcome no Keel writes.
    appendFileSync(path, `${JSON.stringify({ type: 'message', message: { role: 'assistant', content: [{ type: 'text' }] }, at })}\n`);
    appendFileSync(path, `${JSON.stringify({ type: 'task', event: 'end', taskId: 't1', outcome: 'exploded', at })}\n`);
    const before = readFileSync(path, 'utf8');

    const reopened = WorkspaceSession.open(dataDir, session.workspace, { sessionId: session.id });
    expect(reopened.warnings).toEqual(['A saved message had an unexpected shape and was skipped.']);
    expect(reopened.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
    expect(timelineFromRecords(readTranscript(path).records)).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(before);
    reopened.close();
  });
});
