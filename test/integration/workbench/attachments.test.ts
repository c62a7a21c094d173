import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../common/chat';
import { dispatchRequest } from '../../../main/api/dispatch';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { makePng, pngHeaderClaiming } from '../../support/png';
import { imagesOf, reply, text, textOf, toolResultText, toolResults, toolUse } from '../../support/scriptedAnthropic';
import { eventsOf, gatedTool, lastBlocks, realTools, value, waitFor } from './support';

// Pictures and @-mentions through the contract, as the window sends them, to the real SDK and the scripted model.

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function sendAndFinish(harness: AgentHarness, input: Parameters<AgentHarness['core']['handlers']['task.send']>[0]) {
  const sent = value(await harness.core.handlers['task.send'](input));
  await waitFor(() => eventsOf(harness, 'task_finished').find((e) => e.taskId === sent.taskId), 'the task to finish');
  return sent;
}

const userItems = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { kind: 'user' }> => i.kind === 'user');

describe('pictures in a message', () => {
  it('reach the model as a base64 image block, are kept as a blob (not in the transcript line), and come back on resume', async () => {
    h = await startAgentHarness([reply(text('A red square.')), reply(text('Still a square.'))], { tools: realTools() });
    const png = makePng(40, 30);
    await sendAndFinish(h, { text: 'What is in this picture?', images: [{ mediaType: 'image/png', data: png.toString('base64') }] });

    const first = h.server.requests[0]!;
    expect(textOf(first.body.messages[0])).toContain('What is in this picture?');
    const sentImages = imagesOf(first.body.messages[0]);
    expect(sentImages).toHaveLength(1);
    expect(sentImages[0]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: png.toString('base64') });

    // Kept once, owner-only, by content address; the transcript names it.
    const blobs = readdirSync(join(h.dataDir, 'blobs'));
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(readFileSync(join(h.dataDir, 'blobs', blobs[0]!))).toEqual(png);
    if (process.platform !== 'win32') expect(statSync(join(h.dataDir, 'blobs', blobs[0]!)).mode & 0o777).toBe(0o600);
    const transcript = readFileSync(h.core.currentSession!.transcriptPath, 'utf8');
    expect(transcript).not.toContain(png.toString('base64').slice(0, 200));
    expect(transcript).toContain(blobs[0]);

    // The chat shows the thumbnail, live and after reload, and can fetch its bytes.
    const history = value(await h.core.handlers['chat.history']({}));
    expect(userItems(history)[0]!.images).toEqual([{ ref: blobs[0], mediaType: 'image/png' }]);
    expect(value(await h.core.handlers['chat.image']({ ref: blobs[0]! }))).toEqual({ mediaType: 'image/png', data: png.toString('base64') });

    // Resume: the session is opened again from its transcript; the model's history has the picture again.
    expect(h.core.openWorkspace(h.workspace).ok).toBe(true);
    expect(userItems(value(await h.core.handlers['chat.history']({})))[0]!.images).toEqual([{ ref: blobs[0], mediaType: 'image/png' }]);
    await sendAndFinish(h, { text: 'And now?' });
    const second = h.server.requests[1]!;
    expect(imagesOf(second.body.messages[0])[0]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: png.toString('base64') });
    expect(h.server.errors).toEqual([]);
  });

  it('refuses a picture whose bytes are not what it claims, or over the API limits, and nothing is sent', async () => {
    h = await startAgentHarness([], { tools: realTools() });
    const png = makePng(4, 4).toString('base64');
    const wrongType = await h.core.handlers['task.send']({ text: 'look', images: [{ mediaType: 'image/jpeg', data: png }] });
    expect(wrongType.ok).toBe(false);
    if (!wrongType.ok) expect(wrongType.error.message).toContain('says it is image/jpeg but its bytes are image/png');

    const notAPicture = await h.core.handlers['task.send']({
      text: 'look',
      images: [{ mediaType: 'image/png', data: Buffer.from('hello there, not a png').toString('base64') }],
    });
    expect(notAPicture.ok).toBe(false);

    const huge = await h.core.handlers['task.send']({
      text: 'look',
      images: [{ mediaType: 'image/png', data: pngHeaderClaiming(9000, 100).toString('base64') }],
    });
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.error.message).toContain('8000 px');

    // Five pictures are more than the contract allows in one message.
    const many = await dispatchRequest(h.core.handlers, 'task.send', {
      text: 'look',
      images: Array.from({ length: 5 }, () => ({ mediaType: 'image/png', data: png })),
    });
    expect(many.ok).toBe(false);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('a message that is only a picture', () => {
  it('goes through the contract, reaches the model as a lone image block, and the task runs; the chat shows no text', async () => {
    h = await startAgentHarness([reply(text('A login form with an error.')), reply(text('Yes, the same form.'))], { tools: realTools() });
    const png = makePng(48, 32);
    const sent = await dispatchRequest(h.core.handlers, 'task.send', { text: '  ', images: [{ mediaType: 'image/png', data: png.toString('base64') }] });
    expect(sent.ok).toBe(true);
    const finished = await waitFor(() => eventsOf(h!, 'task_finished')[0], 'the task to finish');
    expect(finished.outcome).toBe('done');

    // The scripted model validates like the real API: an empty text block would have been refused.
    expect(h.server.errors).toEqual([]);
    const blocks = h.server.requests[0]!.body.messages[0]!.content;
    expect(Array.isArray(blocks) && blocks.map((b) => b.type)).toEqual(['image']);
    expect(imagesOf(h.server.requests[0]!.body.messages[0])[0]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: png.toString('base64') });

    // Nor is one kept in the session's history, for every later request to carry.
    const stored = h.core.currentSession!.messages[0]!.content;
    expect(Array.isArray(stored) && stored.map((b) => b.type)).toEqual(['image']);

    const [item] = userItems(value(await h.core.handlers['chat.history']({})));
    expect(item).toMatchObject({ text: '', images: [{ ref: expect.stringMatching(/\.png$/), mediaType: 'image/png' }] });

    // Resumed from the transcript, the history still has the picture and nothing empty.
    expect(h.core.openWorkspace(h.workspace).ok).toBe(true);
    expect((await dispatchRequest(h.core.handlers, 'task.send', { text: 'Is it the same?' })).ok).toBe(true);
    await waitFor(() => eventsOf(h!, 'task_finished')[1], 'the second task to finish');
    expect(h.server.errors).toEqual([]);
    expect(lastBlocks(h.server.requests[1]!).map((b) => b.type)).toEqual(['text']);
    expect(imagesOf(h.server.requests[1]!.body.messages[0])).toHaveLength(1);
  });

  it('is queued while the agent works and given to the model after the tool results, without an empty text block', async () => {
    const job = gatedTool('long_job');
    h = await startAgentHarness([reply(toolUse('long_job', {}, 'toolu_job')), reply(text('Saw the picture.'))], { tools: [...realTools(), job] });
    const task = value(await h.core.handlers['task.send']({ text: 'run the job' }));
    await job.started;
    const queued = value(
      await dispatchRequest(h.core.handlers, 'task.send', { text: '', images: [{ mediaType: 'image/png', data: makePng(8, 8).toString('base64') }] }),
    );
    expect(queued).toMatchObject({ queued: true });
    job.release();
    await waitFor(() => eventsOf(h!, 'task_finished').find((e) => e.taskId === task.taskId), 'the task to finish');
    expect(h.server.errors).toEqual([]);
    expect(lastBlocks(h.server.requests[1]!).map((b) => b.type)).toEqual(['tool_result', 'image']);
  });

  it('is refused with neither words nor a picture, and nothing reaches the model', async () => {
    h = await startAgentHarness([], { tools: realTools() });
    for (const input of [{ text: '' }, { text: '   \n ' }, { text: '', images: [] }]) {
      const refused = await dispatchRequest(h.core.handlers, 'task.send', input);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.message).toContain('The message is empty: write something or attach a picture.');
    }
    expect(h.server.requests).toHaveLength(0);
    expect(eventsOf(h, 'task_started')).toHaveLength(0);
  });
});

describe('read_file on a picture', () => {
  it('gives the model an image block in the tool result, and the chat card shows it after reload', async () => {
    const png = makePng(64, 48);
    h = await startAgentHarness([reply(toolUse('read_file', { path: 'shots/screen.png' })), reply(text('I see a gradient.'))], { tools: realTools() });
    mkdirSync(join(h.workspace, 'shots'));
    writeFileSync(join(h.workspace, 'shots/screen.png'), png);
    await sendAndFinish(h, { text: 'Look at the screenshot' });

    const results = toolResults(h.server.requests[1]!);
    expect(results[0]!.is_error).toBeFalsy();
    expect(toolResultText(results[0]!)).toContain('64×48 px');
    expect(imagesOf(h.server.requests[1]!.body.messages.at(-1))[0]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: png.toString('base64') });

    const live = eventsOf(h, 'tool_result')[0]!;
    expect(live.images).toEqual([{ ref: expect.stringMatching(/^[0-9a-f]{64}\.png$/), mediaType: 'image/png' }]);
    h.core.openWorkspace(h.workspace);
    const tool = value(await h.core.handlers['chat.history']({})).find((i) => i.kind === 'tool');
    expect(tool?.kind === 'tool' && tool.result?.images).toEqual(live.images);
  });

  it('refuses a picture over 5 MB with a message that names the limit', async () => {
    h = await startAgentHarness([reply(toolUse('read_file', { path: 'big.png' })), reply(text('Too big.'))], { tools: realTools() });
    const big = makePng(1400, 1400, 'noise');
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    writeFileSync(join(h.workspace, 'big.png'), big);
    await sendAndFinish(h, { text: 'Read it' });
    const result = toolResults(h.server.requests[1]!)[0]!;
    expect(result.is_error).toBe(true);
    expect(toolResultText(result)).toContain('at most 5 MB');
    expect(imagesOf(h.server.requests[1]!.body.messages.at(-1))).toEqual([]);
  });
});

describe('@-mentions', () => {
  it('complete workspace paths (not ignored ones), and a mentioned file goes to the model with its encoding decoded', async () => {
    h = await startAgentHarness([reply(text('Seen both.'))], { tools: realTools() });
    mkdirSync(join(h.workspace, 'src'));
    mkdirSync(join(h.workspace, 'dist'));
    writeFileSync(join(h.workspace, '.gitignore'), 'dist/\n');
    writeFileSync(join(h.workspace, 'src/app.ts'), 'export const answer = 42;\n');
    writeFileSync(join(h.workspace, 'dist/app.js'), 'compiled\n');
    writeFileSync(join(h.workspace, 'src/说明.txt'), iconv.encode('第一行：你好世界。\n第二行：这是测试。\n第三行：结束。\n', 'gbk'));

    let found = value(await h.core.handlers['mentions.query']({ query: 'app' }));
    for (let tries = 0; !found.ready && tries < 500; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      found = value(await h.core.handlers['mentions.query']({ query: 'app' }));
    }
    expect(found.ready).toBe(true);
    expect(found.paths[0]).toBe('src/app.ts');
    expect(found.paths).not.toContain('dist/app.js');
    expect(value(await h.core.handlers['mentions.query']({ query: 'sapp' })).paths).toContain('src/app.ts');

    await sendAndFinish(h, { text: 'Compare @src/app.ts and @src/说明.txt', mentions: ['src/app.ts', 'src/说明.txt', '../outside.txt'] });
    const sent = textOf(h.server.requests[0]!.body.messages[0]);
    expect(sent).toContain('Compare @src/app.ts');
    expect(sent).toContain('<mentioned-file path="src/app.ts">');
    expect(sent).toContain('export const answer = 42;');
    expect(sent).toContain('第二行：这是测试。');
    expect(sent).toContain('[encoding: GB18030]');
    // Confined like the file tools: a path outside the folder is not read.
    expect(sent).toMatch(/<mentioned-file path="\.\.\/outside\.txt" error="true">[\s\S]*outside/);

    const history = value(await h.core.handlers['chat.history']({}));
    expect(userItems(history)[0]!.mentions).toEqual(['src/app.ts', 'src/说明.txt', '../outside.txt']);
  });
});

describe('a message with a picture and a mention sent while the agent works', () => {
  it('is queued with both, and the model gets them after the tool results at its next step', async () => {
    const job = gatedTool('long_job');
    h = await startAgentHarness([reply(toolUse('long_job', {}, 'toolu_job')), reply(text('Saw the note and the picture.'))], { tools: [...realTools(), job] });
    writeFileSync(join(h.workspace, 'notes.md'), '# Notes\nShip on Friday.\n');
    const task = value(await h.core.handlers['task.send']({ text: 'run the job' }));
    await job.started;
    const png = makePng(12, 12);
    const queued = value(
      await h.core.handlers['task.send']({
        text: 'also see @notes.md',
        images: [{ mediaType: 'image/png', data: png.toString('base64') }],
        mentions: ['notes.md'],
      }),
    );
    expect(queued.queued).toBe(true);
    const event = eventsOf(h, 'message_queued')[0]!;
    expect(event.mentions).toEqual(['notes.md']);
    expect(event.images).toEqual([{ ref: expect.stringMatching(/\.png$/), mediaType: 'image/png' }]);
    // While it waits, the chat shows it queued with its picture and chip.
    expect(userItems(value(await h.core.handlers['chat.history']({}))).at(-1)).toMatchObject({ queued: true, mentions: ['notes.md'], images: event.images });

    job.release();
    await waitFor(() => eventsOf(h!, 'task_finished').find((e) => e.taskId === task.taskId), 'the task to finish');
    const blocks = lastBlocks(h.server.requests[1]!);
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text', 'image', 'text']);
    expect(blocks[1]).toMatchObject({ text: 'also see @notes.md' });
    expect(blocks[3]).toMatchObject({ text: expect.stringContaining('Ship on Friday.') });
    expect(userItems(value(await h.core.handlers['chat.history']({}))).at(-1)).toMatchObject({ mentions: ['notes.md'], images: event.images });
  });
});
