import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Tool } from '../types';
import { withFileWriteLock } from '../../platform/fileWriteLock';
import { atomicWriteFile } from './atomicWrite';
import { resolveInWorkspace } from './confine';
import { describeUnrepresentable, encode, UTF8, type TextEncoding } from './encoding';
import { describeFsError, failure, success } from './errors';
import { hardLinkNote, probeTarget } from './existingFile';
import { countLines, formatSize } from './text';
import { newFileWantsBom } from '../../platform/newFileEncoding';

/** For a new PowerShell script on Windows (see newFileWantsBom). */
const UTF8_WITH_BOM: TextEncoding = { ...UTF8, bom: true, label: 'UTF-8 with BOM' };

const inputSchema = z.object({
  path: z.string().describe('File path, relative to the workspace. Missing parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool: Tool<typeof inputSchema> = {
  name: 'write_file',
  kind: 'file_change',
  description: [
    'Create a file, or replace the whole content of an existing one, in the workspace. Missing parent folders are created.',
    'For a change to part of an existing file, prefer edit_file: it is shorter and cannot lose the rest of the file.',
    'A new file is written as UTF-8. An existing file keeps its encoding (for example GBK or UTF-16), its BOM, its permissions and, when `content` uses plain \\n, its CRLF line endings;',
    'content with characters its encoding cannot hold is refused.',
    'The write is atomic: the file is either wholly old or wholly new, never half written.',
    'Returns a one-line summary (created or overwritten, lines, bytes).',
  ].join(' '),
  inputSchema,
  async run(input, context) {
    const resolved = await resolveInWorkspace(context.workspace, input.path, { writing: true, platform: context.platform, secrets: context.secrets });
    if (!resolved.ok) return failure(resolved.message);
    // Never between a helper's merge's check of this file and its write (fileWriteLock.ts).
    return withFileWriteLock(resolved.absolute, async () => {
      const shown = resolved.relative;
      try {
        const target = await probeTarget(resolved.absolute);
        if (target.kind === 'folder') {
          return failure(`"${shown}" is a folder; write_file writes files. Give a file path inside it, like "${shown}/name.txt".`);
        }
        if (target.kind === 'special') return failure(`"${shown}" is not a regular file (a device, socket or pipe) and is not overwritten.`);

        let encoding: TextEncoding = target.kind === 'missing' && newFileWantsBom(resolved.absolute, context.platform) ? UTF8_WITH_BOM : UTF8;
        let content = input.content;
        let keptCrlf = false;
        if (target.kind === 'file' && target.sniffed.kind === 'text') {
          encoding = target.sniffed.encoding;
          // A model writes \n; a Windows file rewritten that way would show every line as changed.
          if (target.eol === '\r\n' && !content.includes('\r')) {
            content = content.replaceAll('\n', '\r\n');
            keptCrlf = content !== input.content;
          }
        }
        const encoded = encode(content, encoding);
        if (!encoded.ok) {
          return failure(
            `"${shown}" is encoded as ${encoding.label}, which cannot hold ${describeUnrepresentable(encoded.unrepresentable)}. ` +
              `Nothing was written. Use characters ${encoding.label} has (or plain ASCII), or ask the person to convert the file to UTF-8.`,
          );
        }

        await mkdir(path.dirname(resolved.absolute), { recursive: true });
        context.beforeFileChange?.(resolved.absolute);
        await atomicWriteFile(resolved.absolute, encoded.bytes, {
          mode: target.kind === 'file' ? target.mode : undefined,
          signal: context.signal,
        });

        const lines = countLines(content);
        const details = [`${lines} line${lines === 1 ? '' : 's'}`, formatSize(encoded.bytes.length)];
        if (encoding === UTF8_WITH_BOM) details.push('UTF-8 with BOM, as Windows PowerShell 5.1 needs');
        else if (encoding !== UTF8) details.push(`kept ${encoding.label}`);
        if (keptCrlf) details.push('kept CRLF line endings');
        if (target.kind === 'file' && target.sniffed.kind === 'binary') details.push('replaced a binary file');
        const linkNote = target.kind === 'file' ? hardLinkNote(target.links) : undefined;
        if (linkNote) details.push(linkNote);
        const verb = target.kind === 'file' ? 'Overwrote' : 'Created';
        return success(`${verb} ${shown} (${details.join(', ')}).`);
      } catch (error) {
        return failure(describeFsError(error, shown, 'writing', context.signal));
      }
    });
  },
};
