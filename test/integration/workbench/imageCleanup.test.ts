import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../common/chat';
import { KeelCore } from '../../../main/api/core';
import { ImageBlobStore } from '../../../main/images/imageBlobs';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { makePng } from '../../support/png';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { eventsOf, realTools, value, waitFor } from './support';

// Deleting a session removes the pictures only it showed: pasted ones and ones the agent read.

let h: AgentHarness | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const refOf = (png: Buffer) => `${createHash('sha256').update(png).digest('hex')}.png`;
const blobPath = (ref: string) => join(h!.dataDir, 'blobs', ref);
const asImage = (png: Buffer) => ({ mediaType: 'image/png' as const, data: png.toString('base64') });
const pictures = (items: ChatItem[]) => items.flatMap((i) => (i.kind === 'user' ? (i.images ?? []).map((image) => image.ref) : []));

async function sendAndFinish(harness: AgentHarness, input: Parameters<AgentHarness['core']['handlers']['task.send']>[0]): Promise<void> {
  const sent = value(await harness.core.handlers['task.send'](input));
  await waitFor(() => eventsOf(harness, 'task_finished').find((e) => e.taskId === sent.taskId), 'the task to finish');
}

/** As if kept an hour ago: older than the grace period that protects a picture another Keel just kept. */
function age(...refs: string[]): void {
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  for (const ref of refs) utimesSync(blobPath(ref), hourAgo, hourAgo);
}

describe('deleting a session', () => {
  it('removes the pictures only it showed; one another session shows (in this folder or another) stays and still shows there', async () => {
    const warnings: string[] = [];
    h = await startAgentHarness([reply(toolUse('read_file', { path: 'screen.png' })), reply(text('Seen.')), reply(text('B.')), reply(text('C.'))], {
      tools: realTools(),
      core: { log: (m) => warnings.push(m) },
    });
    const own = makePng(10, 10);
    const sharedHere = makePng(12, 12);
    const sharedElsewhere = makePng(14, 14);
    const readByAgent = makePng(16, 16);
    writeFileSync(join(h.workspace, 'screen.png'), readByAgent);

    await sendAndFinish(h, { text: 'Session A', images: [asImage(own), asImage(sharedHere), asImage(sharedElsewhere)] });
    const a = h.core.currentSession!.id;
    value(await h.core.handlers['session.new']({}));
    await sendAndFinish(h, { text: 'Session B', images: [asImage(sharedHere)] });
    const b = h.core.currentSession!.id;
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'keel-ws-other-')));
    cleanup.push(other);
    expect(h.core.openWorkspace(other).ok).toBe(true);
    await sendAndFinish(h, { text: 'Session C', images: [asImage(sharedElsewhere)] });
    expect(h.core.openWorkspace(h.workspace).ok).toBe(true);
    expect(h.core.currentSession!.id).toBe(b);

    const all = [own, sharedHere, sharedElsewhere, readByAgent].map(refOf);
    for (const ref of all) expect(existsSync(blobPath(ref)), ref).toBe(true);
    age(...all);

    expect(value(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(existsSync(blobPath(refOf(own)))).toBe(false);
    expect(existsSync(blobPath(refOf(readByAgent)))).toBe(false);
    expect(existsSync(blobPath(refOf(sharedHere)))).toBe(true);
    expect(existsSync(blobPath(refOf(sharedElsewhere)))).toBe(true);
    // Nothing is left to do, and nothing went wrong.
    expect(readdirSync(join(h.dataDir, 'blob-cleanup'))).toEqual([]);
    expect(warnings.filter((w) => w.includes('picture'))).toEqual([]);

    // The remaining sessions still show their pictures.
    const chatB = value(await h.core.handlers['chat.history']({}));
    expect(pictures(chatB)).toEqual([refOf(sharedHere)]);
    expect(value(await h.core.handlers['chat.image']({ ref: refOf(sharedHere) })).data).toBe(sharedHere.toString('base64'));
    expect(h.core.openWorkspace(other).ok).toBe(true);
    expect(value(await h.core.handlers['chat.image']({ ref: refOf(sharedElsewhere) })).data).toBe(sharedElsewhere.toString('base64'));
  });

  it('leaves a picture kept moments ago until it is older than the grace period; the next start removes it', async () => {
    h = await startAgentHarness([reply(text('A.'))], { tools: realTools() });
    const png = makePng(20, 20);
    await sendAndFinish(h, { text: 'Session A', images: [asImage(png)] });
    const a = h.core.currentSession!.id;

    // The open session itself; a new one takes its place.
    expect(value(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(h.core.currentSession!.id).not.toBe(a);
    expect(existsSync(blobPath(refOf(png)))).toBe(true);
    expect(readdirSync(join(h.dataDir, 'blob-cleanup'))).toHaveLength(1);

    age(refOf(png));
    const next = new KeelCore({ dataDir: h.dataDir, host: 'web', version: 'test' });
    try {
      await next.init();
      await waitFor(() => !existsSync(blobPath(refOf(png))), 'the picture of the deleted session to be removed at the next start');
      await waitFor(() => readdirSync(join(h!.dataDir, 'blob-cleanup')).length === 0, 'the note to be forgotten');
    } finally {
      await next.dispose();
    }
  });

  it('a picture that cannot be removed is a warning, not a failed delete, and is tried again at the next start', async () => {
    const warnings: string[] = [];
    h = await startAgentHarness([reply(text('A.')), reply(text('B.'))], { tools: realTools(), core: { log: (m) => warnings.push(m) } });
    const png = makePng(24, 24);
    await sendAndFinish(h, { text: 'Session A', images: [asImage(png)] });
    const a = h.core.currentSession!.id;
    value(await h.core.handlers['session.new']({}));

    // A folder where the picture was: unlink refuses it, whoever runs the test.
    unlinkSync(blobPath(refOf(png)));
    mkdirSync(blobPath(refOf(png)));
    age(refOf(png));
    expect(value(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(value(await h.core.handlers['session.list']({})).map((s) => s.id)).not.toContain(a);
    expect(warnings.some((w) => w.includes(refOf(png)) && w.includes('tries again at its next start'))).toBe(true);
    expect(readdirSync(join(h.dataDir, 'blob-cleanup'))).toHaveLength(1);

    rmSync(blobPath(refOf(png)), { recursive: true });
    const next = new KeelCore({ dataDir: h.dataDir, host: 'web', version: 'test' });
    try {
      await next.init();
      await waitFor(() => readdirSync(join(h!.dataDir, 'blob-cleanup')).length === 0, 'the note to be finished at the next start');
    } finally {
      await next.dispose();
    }
  });
});

describe('a picture another Keel on the same data folder keeps again', () => {
  it('is not removed with a deleted session that had it, though no transcript names it yet', async () => {
    h = await startAgentHarness([reply(text('A.')), reply(text('B.'))], { tools: realTools() });
    const png = makePng(28, 28);
    await sendAndFinish(h, { text: 'Session A', images: [asImage(png)] });
    const a = h.core.currentSession!.id;
    value(await h.core.handlers['session.new']({}));
    age(refOf(png));

    // A second `keel web` keeps the same picture for a message whose line it has not written yet.
    expect(new ImageBlobStore(h.dataDir).put(png, 'image/png')).toBe(refOf(png));
    expect(value(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(existsSync(blobPath(refOf(png)))).toBe(true);
  });
});
