import { useI18n } from '../i18n/I18nProvider';
import { ChevronIcon, TerminalIcon } from './icons';
import { Separator } from './layout/Separator';

interface Props {
  open: boolean;
  height: number;
  maxHeight: number;
  minHeight: number;
  onToggle(): void;
  onResize(height: number): void;
  onReset(): void;
}

/**
 * The bottom panel where the integrated terminal will live (it arrives in a later issue). Collapsed
 * to its title bar by default; opened, its height is set by the separator above it.
 */
export function TerminalPanel({ open, height, maxHeight, minHeight, onToggle, onResize, onReset }: Props) {
  const { t } = useI18n();
  return (
    <>
      {open ? (
        <Separator
          orientation="horizontal"
          label={t('layout.resizeTerminal')}
          controls="terminal-panel"
          value={height}
          min={minHeight}
          max={maxHeight}
          inverted
          onChange={onResize}
          onReset={onReset}
        />
      ) : null}
      <section className={`terminal-panel${open ? ' is-open' : ''}`} aria-labelledby="terminal-title" id="terminal-panel" style={open ? { height } : undefined}>
        <h2 className="panel-bar">
          <button type="button" id="terminal-title" className="panel-toggle" aria-expanded={open} aria-controls={open ? 'terminal-body' : undefined} onClick={onToggle}>
            <ChevronIcon direction={open ? 'down' : 'right'} />
            <TerminalIcon />
            {t('terminal.title')}
          </button>
        </h2>
        {open ? (
          <div id="terminal-body" className="terminal-body">
            <p className="terminal-placeholder">{t('terminal.placeholder')}</p>
          </div>
        ) : null}
      </section>
    </>
  );
}
