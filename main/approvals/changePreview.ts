import { createTwoFilesPatch } from 'diff';
import { resolveInWorkspace } from '../tools/files/confine';
import { loadWholeText } from '../tools/files/existingFile';

/**
 * What a write or edit would change, as a unified diff, for the approval card. It is a preview:
 * the tool itself still decides (and may refuse, e.g. an edit whose text is not found).
 */
export async function previewFileChange(workspace: string, tool: string, input: unknown): Promise<{ path: string; diff: string } | null> {
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof fields.path !== 'string') return null;
  const resolved = await resolveInWorkspace(workspace, fields.path, { writing: true });
  if (!resolved.ok) return { path: fields.path, diff: `(refused: ${resolved.message})` };
  const current = await loadWholeText(resolved.absolute);
  const before = current.kind === 'text' ? current.text.replace(/\r\n/g, '\n') : '';
  let after: string;
  if (tool === 'write_file' && typeof fields.content === 'string') {
    after = fields.content.replace(/\r\n/g, '\n');
  } else if (tool === 'edit_file' && typeof fields.old_text === 'string' && typeof fields.new_text === 'string') {
    const oldText = fields.old_text.replace(/\r\n/g, '\n');
    const newText = fields.new_text.replace(/\r\n/g, '\n');
    if (oldText === '' || !before.includes(oldText)) return { path: fields.path, diff: '(the text to replace was not found: the edit will be refused)' };
    after = fields.replace_all === true ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
  } else {
    return null;
  }
  const label = current.kind === 'missing' ? '/dev/null' : `a/${fields.path}`;
  return { path: fields.path, diff: createTwoFilesPatch(label, `b/${fields.path}`, before, after, '', '', { context: 3 }) };
}
