import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useI18n, type Translate } from '../../i18n/I18nProvider';
import { DeniedNote } from './DeniedNote';
import type { ToolItem } from './toolItem';
import { terminalText, type CommandEnding, type CommandResult } from './toolInfo';

/** The command, its output (live while it runs) and how it ended. */
export function CommandBody({ item, parsed, running }: { item: ToolItem; parsed: CommandResult | null; running: boolean }) {
  const { t } = useI18n();
  const command = typeof (item.input as { command?: unknown })?.command === 'string' ? (item.input as { command: string }).command : '';
  const raw = parsed ? parsed.output : (item.output ?? '');
  // The tool says "(no output)" to the model; the card says it in its own words.
  const output = raw.trim() === '(no output)' ? '' : terminalText(raw);
  const outputRef = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    // Live output follows the end, like a terminal.
    if (running && outputRef.current) outputRef.current.scrollTop = outputRef.current.scrollHeight;
  }, [output, running]);
  const ending = parsed?.ending;
  return (
    <div className="command">
      <pre className="command-line">
        <span className="command-prompt" aria-hidden="true">
          ${' '}
        </span>
        {command}
      </pre>
      {ending?.kind === 'denied' ? (
        <DeniedNote content={item.result?.content ?? ''} what="command" />
      ) : output.trim() !== '' ? (
        <pre ref={outputRef} className="command-output" tabIndex={0} aria-label={t('chat.command.output')}>
          {output}
        </pre>
      ) : (
        <p className="tool-note">{running ? t('chat.command.waitingOutput') : t('chat.command.noOutput')}</p>
      )}
      {ending && ending.kind !== 'denied' && <p className={`command-ending ending-${ending.kind}`}>{endingText(ending, t)}</p>}
    </div>
  );
}

function endingText(ending: CommandEnding, t: Translate): string {
  switch (ending.kind) {
    case 'exit':
      return ending.code === null ? t('chat.command.exitUnknown') : t('chat.command.exit', { code: ending.code });
    case 'signal':
      return t('chat.command.signal', { signal: ending.signal });
    case 'timeout':
      return t('chat.command.timeout');
    case 'stopped':
      return t('chat.command.stopped');
    case 'failed':
      return t('chat.command.failed');
    default:
      return '';
  }
}

/** The card header's short word on how the command ended. */
export function commandMeta(ending: CommandEnding, t: Translate): ReactNode {
  switch (ending.kind) {
    case 'exit':
      if (ending.code === null) return null;
      return <span className={`chip ${ending.code === 0 ? 'chip-ok' : 'chip-warning'}`}>{t('chat.command.exitShort', { code: ending.code })}</span>;
    case 'signal':
      return <span className="chip chip-warning">{ending.signal}</span>;
    case 'timeout':
      return <span className="chip chip-warning">{t('chat.command.timeoutShort')}</span>;
    case 'stopped':
      return <span className="chip">{t('chat.command.stoppedShort')}</span>;
    default:
      return null;
  }
}
