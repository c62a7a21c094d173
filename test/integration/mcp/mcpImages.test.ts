import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../common/chat';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { imagesOf, reply, text, toolUse } from '../../support/scriptedAnthropic';
import { eventsOf, value, waitFor } from '../workbench/support';
import { EVERYTHING } from './servers';

// A picture an MCP tool returns takes read_file's path: a blob named in the transcript, shown in
// the tool card live and after a reopen, given to the model again on resume, removed with its session.

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOOL = 'mcp__everything__get-tiny-image';

async function startWithPicture(extraReplies: ReturnType<typeof reply>[], log?: (message: string) => void): Promise<AgentHarness> {
  const harness = await startAgentHarness([reply(toolUse(TOOL, {})), reply(text('Seen.')), ...extraReplies], {
    settingsFile: { mcpServers: { everything: EVERYTHING } },
    ...(log ? { core: { log } } : {}),
  });
  await waitFor(() => harness.core.mcp.list().servers.find((s) => s.name === 'everything' && s.state === 'running'), 'the server to run', 60_000);
  await sendAndFinish(harness, 'Show me the tiny image');
  return harness;
}

async function sendAndFinish(harness: AgentHarness, message: string): Promise<void> {
  const sent = value(await harness.core.handlers['task.send']({ text: message }));
  await waitFor(() => eventsOf(harness, 'task_finished').find((e) => e.taskId === sent.taskId), 'the task to finish', 60_000);
}

/** The picture the model got in the tool result, as bytes. */
function pictureSent(harness: AgentHarness, request: number): Buffer[] {
  return imagesOf(harness.server.requests[request]!.body.messages[2]).map((image) => Buffer.from((image.source as { data: string }).data, 'base64'));
}

async function toolCard(harness: AgentHarness): Promise<Extract<ChatItem, { kind: 'tool' }>> {
  const tool = value(await harness.core.handlers['chat.history']({})).find((i) => i.kind === 'tool' && i.name === TOOL);
  if (tool?.kind !== 'tool') throw new Error('no tool card for the MCP call');
  return tool;
}

describe('a picture from an MCP tool', () => {
  it('is kept as a blob named in the transcript, shown in the card live and after a reopen, and given to the model again on resume', async () => {
    h = await startWithPicture([reply(text('Still the MCP logo.'))]);
    expect(h.server.errors).toEqual([]);
    const [png] = pictureSent(h, 1);
    expect(png!.subarray(1, 4).toString()).toBe('PNG');

    const blobs = readdirSync(join(h.dataDir, 'blobs'));
    expect(blobs).toHaveLength(1);
    expect(readFileSync(join(h.dataDir, 'blobs', blobs[0]!))).toEqual(png);
    const transcript = readFileSync(h.core.currentSession!.transcriptPath, 'utf8');
    expect(transcript).not.toContain(png!.toString('base64').slice(0, 200));
    expect(transcript).not.toContain('"type":"base64"');
    expect(transcript).toContain(blobs[0]);

    // Live: the card has the picture and its place in the text.
    const live = eventsOf(h, 'tool_result').find((e) => e.name === TOOL)!;
    expect(live.images).toEqual([{ ref: blobs[0], mediaType: 'image/png' }]);
    expect(live.content).toContain('[image: image/png]');
    expect(value(await h.core.handlers['chat.image']({ ref: blobs[0]! })).data).toBe(png!.toString('base64'));

    // Reopened from the transcript: the same card.
    expect(h.core.openWorkspace(h.workspace).ok).toBe(true);
    const reopened = await toolCard(h);
    expect(reopened.result).toEqual({ content: live.content, isError: false, images: live.images });

    // Resumed: the model gets the picture again, from the blob.
    await sendAndFinish(h, 'Is it still there?');
    expect(pictureSent(h, 2)).toEqual([png]);
    expect(h.server.errors).toEqual([]);
  });

  it('in a transcript written before (inline base64) still reads: the card shows its marker and the model gets the picture on resume', async () => {
    h = await startWithPicture([reply(text('Still the MCP logo.'))]);
    const [png] = pictureSent(h, 1);
    const live = eventsOf(h, 'tool_result').find((e) => e.name === TOOL)!;
    const path = h.core.currentSession!.transcriptPath;
    const ref = readdirSync(join(h.dataDir, 'blobs'))[0]!;
    // As older Keels wrote it: the picture inline, no blob.
    const inline = JSON.stringify({ type: 'base64', media_type: 'image/png', data: png!.toString('base64') });
    writeFileSync(path, readFileSync(path, 'utf8').replace(JSON.stringify({ type: 'keel_blob', ref, media_type: 'image/png' }), inline));
    rmSync(join(h.dataDir, 'blobs', ref));
    expect(readFileSync(path, 'utf8')).toContain(png!.toString('base64'));

    expect(h.core.openWorkspace(h.workspace).ok).toBe(true);
    expect((await toolCard(h)).result).toEqual({ content: live.content, isError: false });
    await sendAndFinish(h, 'Is it still there?');
    expect(pictureSent(h, 2)).toEqual([png]);
    expect(h.server.errors).toEqual([]);
  });

  it('is removed with the session that showed it', async () => {
    const warnings: string[] = [];
    h = await startWithPicture([], (m) => warnings.push(m));
    const session = h.core.currentSession!.id;
    const [ref] = readdirSync(join(h.dataDir, 'blobs'));
    const blob = join(h.dataDir, 'blobs', ref!);
    // Older than the grace period that protects a picture another Keel just kept.
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(blob, hourAgo, hourAgo);

    value(await h.core.handlers['session.new']({}));
    expect(value(await h.core.handlers['session.delete']({ id: session }))).toEqual({ deleted: true });
    expect(existsSync(blob)).toBe(false);
    expect(warnings.filter((w) => w.includes('picture'))).toEqual([]);
  });
});
