import { describe, expect, it } from 'vitest';
import { needsApproval, sessionRuleFor } from '../../../main/approvals/approvals';
import { parseServers } from '../../../main/mcp/mcpConfig';
import { MCP_MAX_TEXT_BYTES, mcpShownText, toToolResult } from '../../../main/mcp/mcpResult';
import { expandVariables } from '../../../main/mcp/expandVariables';
import { makePng } from '../../support/png';
import { isMcpToolName, MAX_TOOL_NAME, mcpToolName, serverSegmentOf, uniqueServerSegment, uniqueToolName } from '../../../main/mcp/toolNames';

const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, cleaned to what the API accepts', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    const odd = mcpToolName('my db.prod', 'run query/v2');
    expect(odd).toBe('mcp__my_db_prod__run_query_v2');
    expect(odd).toMatch(API_TOOL_NAME);
    // A server name with "__" cannot shift where the server part ends.
    expect(serverSegmentOf(mcpToolName('a__b', 'c'))).toBe('a_b');
  });

  it('long names are cut to 64 with a hash, so two long names stay distinct', () => {
    const a = mcpToolName('a-very-long-server-name-for-testing-limits', `${'x'.repeat(80)}_one`);
    const b = mcpToolName('a-very-long-server-name-for-testing-limits', `${'x'.repeat(80)}_two`);
    expect(a).toMatch(API_TOOL_NAME);
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(isMcpToolName(a)).toBe(true);
    expect(uniqueToolName('mcp__s__a_b', 'a.b', new Set(['mcp__s__a_b']))).not.toBe('mcp__s__a_b');
    // Two servers whose names clean alike get distinct prefixes, so their tools never share a name.
    const second = uniqueServerSegment('my.db', new Set(['my_db']));
    expect(second).not.toBe('my_db');
    expect(serverSegmentOf(mcpToolName('my.db', 'query', second))).toBe(second);
  });

  it('MCP tools ask in every mode but full auto, unless the tool or its server is allowed', () => {
    const name = 'mcp__db__query';
    expect(needsApproval('auto_edits', { name, kind: 'mcp', input: { command: 'ls' } }, new Set(['command:ls']))).toBe(true);
    expect(needsApproval('full_auto', { name, kind: 'mcp', input: {} }, new Set())).toBe(false);
    expect(needsApproval('ask', { name, kind: 'mcp', input: {} }, new Set(['tool:mcp__db__query']))).toBe(false);
    expect(needsApproval('ask', { name, kind: 'mcp', input: {} }, new Set(['mcp:db']))).toBe(false);
    expect(needsApproval('ask', { name, kind: 'mcp', input: {} }, new Set(['mcp:other']))).toBe(true);
    // An argument named "command" does not turn it into a shell rule.
    expect(sessionRuleFor({ name, kind: 'mcp', input: { command: 'rm -rf /' } })).toBe('tool:mcp__db__query');
  });
});

describe('MCP config', () => {
  it('accepts the common format, and names the file and key of each bad entry', () => {
    const { servers, errors } = parseServers(
      {
        fs: { command: 'npx', args: ['-y', 'server'], env: { A: '1' }, disabled: false },
        web: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
        std: { type: 'stdio', command: 'uvx', args: ['srv'] },
        noUrl: { type: 'http' },
        numbers: { command: 'x', args: [1, 2] },
        junk: 'text',
      },
      '/home/me/.keel/settings.json',
    );
    expect([...servers.keys()]).toEqual(['fs', 'web', 'std']);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^\/home\/me\/\.keel\/settings\.json: mcpServers\.noUrl: url/);
    expect(errors[1]).toMatch(/mcpServers\.numbers: args\.0/);
    expect(errors[2]).toMatch(/mcpServers\.junk: a server must be an object/);
    expect(parseServers([], 'f').errors[0]).toMatch(/^f: mcpServers must be an object/);
  });

  it('expands ${VAR} and ${VAR:-default}, and reports unset ones', () => {
    const missing = new Set<string>();
    expect(expandVariables('Bearer ${TOKEN} ${HOST:-localhost} ${NOPE}', { TOKEN: 't0k' }, missing)).toBe('Bearer t0k localhost ');
    expect([...missing]).toEqual(['NOPE']);
  });
});

describe('MCP results', () => {
  it('keep text, images, resources and isError, in order', () => {
    const result = toToolResult(
      {
        isError: true,
        content: [
          { type: 'text', text: 'before' },
          { type: 'image', data: makePng(4, 3).toString('base64'), mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
          { type: 'image', data: 'AAAA', mimeType: 'image/bmp' },
        ],
      },
      's/t',
    );
    expect(result.isError).toBe(true);
    expect(result.blocks!.map((b) => b.type)).toEqual(['text', 'image', 'text', 'text']);
    expect(result.content).toContain('[image: image/png]');
    expect(result.content).toContain('[resource <file:///a.txt> (text/plain)]\ninside');
    expect(result.content).toContain('image/bmp, not shown');
  });

  it('pass on a picture only when the API would take it, by its bytes; the chat text is rebuilt from the blocks alone', () => {
    const png = makePng(4, 3);
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'shots:' },
          // Claimed as JPEG, bytes are PNG: sent as what the bytes are.
          { type: 'image', data: png.toString('base64'), mimeType: 'image/jpeg' },
          // Only the PNG signature: the API would refuse it, and every request after it.
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'image', data: Buffer.from('not a picture').toString('base64'), mimeType: 'image/gif' },
        ],
      },
      's/t',
    );
    expect(result.blocks!.map((b) => b.type)).toEqual(['text', 'image', 'text', 'text']);
    expect(result.blocks![1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } });
    expect(result.content.split('\n')).toEqual([
      'shots:',
      '[image: image/png]',
      '[image: image/png, not shown: The image looks like image/png but its header is cut off or damaged, so the model could not read it.]',
      '[image: image/gif, not shown: The image is not a PNG, JPEG, GIF or WebP picture (its first bytes say otherwise). Only those formats can be sent to the model.]',
    ]);
    // A transcript keeps the picture as a blob name (or, from older Keels, as base64): the same text.
    const stored = result.blocks!.map((b) => (b.type === 'image' ? { type: 'image', source: { type: 'keel_blob', ref: 'x', media_type: 'image/png' } } : b));
    expect(mcpShownText(stored)).toBe(result.content);
    expect(mcpShownText(result.blocks!)).toBe(result.content);
  });

  it('text past the cap is cut, and the model is told', () => {
    const result = toToolResult({ content: [{ type: 'text', text: 'é'.repeat(MCP_MAX_TEXT_BYTES) }] }, 'srv/big');
    expect(Buffer.byteLength(result.content)).toBeLessThan(MCP_MAX_TEXT_BYTES + 300);
    expect(result.content).not.toContain('\uFFFD');
    expect(result.content).toContain('[srv/big: the output was cut');
    expect(result.blocks).toBeUndefined();
  });

  it('an empty answer still says something', () => {
    expect(toToolResult({ content: [] }, 's/t')).toEqual({ content: '(no output)', isError: false });
    expect(toToolResult({ content: [], structuredContent: { n: 1 } }, 's/t').content).toContain('"n": 1');
  });
});
