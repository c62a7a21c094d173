import { memo, useId, type ReactNode } from 'react';
import type { ToolItem } from './toolItem';
import { useI18n, type Translate } from '../../i18n/I18nProvider';
import { useChat, useExpanded } from '../chatContext';
import type { ToolApproval } from '../chatStore';
import { ChevronIcon, FileEditIcon, FileIcon, ListIcon, PlanIcon, SearchIcon, Spinner, TerminalIcon, ToolIcon } from '../../ui/icons';
import { CommandBody, commandMeta } from './CommandBody';
import { DiffStat } from './DiffTable';
import { FileChangeBody, fileChangeDiff } from './FileChangeBody';
import { plural } from '../../i18n/plural';
import { ReadBody } from './ReadBody';
import { ResultText } from './ResultText';
import { isStaleRewriteRefusal } from '../../../common/plan/rules';
import { TodoBody, todoSummary } from './TodoBody';
import { countResults, delegateSummary, isDenied, isStopped, parseCommandResult, readRange, stringField } from './toolInfo';

type Phase = 'running' | 'waiting' | 'done' | 'error' | 'denied' | 'stopped' | 'unfinished' | 'redo';

interface Description {
  icon: ReactNode;
  label: string;
  summary: string;
  meta?: ReactNode;
  body: ReactNode;
  /** Open unless the person chose otherwise. */
  open: boolean;
}

/**
 * A tool call as a compact card: one line that says what it did and how it went; the details
 * (command output, diff, lines read, plan changes) open under it.
 */
export const ToolCard = memo(function ToolCard({ item, running, previousTodo }: { item: ToolItem; running: boolean; previousTodo?: unknown }) {
  const { t } = useI18n();
  const { approvalOf } = useChat();
  const approval = approvalOf.get(item.id);
  // After Keel restarted, only the transcript knows how the card was answered.
  const decision = approval?.decision ?? (item.result ? item.decision : undefined);
  const phase = phaseOf(item, approval, decision, running);
  const described = describe(item, approval, phase, previousTodo, t);
  const [open, setOpen] = useExpanded(item.id, described.open);
  const bodyId = useId();
  return (
    <div className={`tool-card phase-${phase}`} data-tool={item.name} data-tool-id={item.id}>
      <button type="button" className="tool-head" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <ChevronIcon open={open} size={12} className="chevron" />
        <span className="tool-icon">{described.icon}</span>
        <span className="tool-label">{described.label}</span>
        <span className="tool-summary">{described.summary}</span>
        <span className="tool-meta">
          {described.meta}
          <PhaseBadge phase={phase} decision={decision} />
        </span>
      </button>
      {open && (
        <div className="tool-body" id={bodyId}>
          {described.body}
        </div>
      )}
    </div>
  );
});

function phaseOf(item: ToolItem, approval: ToolApproval | undefined, decision: ToolApproval['decision'], running: boolean): Phase {
  if (item.result) {
    if (item.result.isError && isStopped(item.result.content)) return 'stopped';
    // Refused only because the person edited the plan first: the agent redoes it, nothing failed.
    if (item.name === 'todo' && item.result.isError && isStaleRewriteRefusal(item.result.content)) return 'redo';
    if (decision === 'deny' || (item.result.isError && isDenied(item.result.content))) return 'denied';
    return item.result.isError ? 'error' : 'done';
  }
  if (!running) return 'unfinished';
  return approval && !approval.decision ? 'waiting' : 'running';
}

function PhaseBadge({ phase, decision }: { phase: Phase; decision: ToolApproval['decision'] }) {
  const { t } = useI18n();
  switch (phase) {
    case 'running':
      return (
        <span className="tool-phase">
          <Spinner />
          <span className="visually-hidden">{t('chat.tool.running')}</span>
        </span>
      );
    case 'waiting':
      return <span className="chip chip-warning">{t('chat.tool.waiting')}</span>;
    case 'denied':
      return <span className="chip chip-danger">{t('chat.tool.denied')}</span>;
    case 'error':
      return <span className="chip chip-danger">{t('chat.tool.failed')}</span>;
    case 'unfinished':
      return <span className="chip">{t('chat.tool.noResult')}</span>;
    case 'stopped':
      return <span className="chip">{t('chat.tool.stopped')}</span>;
    case 'redo':
      return <span className="chip">{t('chat.plan.redoLabel')}</span>;
    default:
      return decision === 'allow_session' ? (
        <span className="chip">{t('chat.tool.allowedSession')}</span>
      ) : decision === 'allow_once' ? (
        <span className="chip">{t('chat.tool.allowedOnce')}</span>
      ) : null;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!;
  return line.length < text.length ? `${line} …` : line;
}

function describe(item: ToolItem, approval: ToolApproval | undefined, phase: Phase, previousTodo: unknown, t: Translate): Description {
  const result = item.result;
  const failed = phase === 'error' || phase === 'denied';
  switch (item.name) {
    case 'bash': {
      const command = stringField(item.input, 'command') ?? '';
      const parsed = result ? parseCommandResult(result.content, result.isError) : null;
      return {
        icon: <TerminalIcon />,
        label: t('chat.tool.bash'),
        summary: firstLine(command),
        meta: parsed && phase !== 'stopped' ? commandMeta(parsed.ending, t) : null,
        body: <CommandBody item={item} parsed={parsed} running={phase === 'running'} />,
        open: phase === 'running' || phase === 'error',
      };
    }
    case 'write_file':
    case 'edit_file': {
      const path = stringField(item.input, 'path') ?? approval?.request.path ?? '';
      const diff = fileChangeDiff(item, approval);
      return {
        icon: <FileEditIcon />,
        label: t(item.name === 'write_file' ? 'chat.tool.write' : 'chat.tool.edit'),
        summary: path,
        meta: diff && diff.lines.length > 0 ? <DiffStat diff={diff} /> : null,
        body: <FileChangeBody item={item} diff={diff} />,
        open: failed,
      };
    }
    case 'read_file': {
      const range = readRange(item.input, result && !result.isError ? result.content : undefined);
      return {
        icon: <FileIcon />,
        label: t('chat.tool.read'),
        summary: stringField(item.input, 'path') ?? '',
        meta: range ? <span className="tool-count">{rangeText(range, t)}</span> : null,
        body: <ReadBody item={item} />,
        // A picture the agent looked at is shown at once: it is what the person wants to see.
        open: failed || Boolean(result?.images?.length),
      };
    }
    case 'list_files':
    case 'search_text': {
      const search = item.name === 'search_text';
      const pattern = stringField(item.input, 'pattern');
      const where = stringField(item.input, 'path');
      const glob = stringField(item.input, 'glob');
      const what = search ? [`/${pattern ?? ''}/`, glob].filter(Boolean).join(' ') : (pattern ?? t('chat.tool.allFiles'));
      // "all files in this folder" / "此文件夹中的所有文件": each language orders the phrase its own way.
      const place = where === undefined || where === '' ? null : where === '.' || where === './' ? t('chat.tool.thisFolder') : where;
      const summary = place === null ? what : t('chat.tool.inPath', { what, path: place });
      // While a search runs, its matches stream in as live output: counted as they come.
      const count = result ? (result.isError ? null : countResults(result.content)) : item.output ? countResults(item.output) : null;
      return {
        icon: search ? <SearchIcon /> : <ListIcon />,
        label: t(search ? 'chat.tool.search' : 'chat.tool.list'),
        summary,
        meta:
          count === null ? null : (
            <span className="tool-count">
              {search ? plural(t, count, 'chat.tool.matches.one', 'chat.tool.matches') : plural(t, count, 'chat.tool.files.one', 'chat.tool.files')}
            </span>
          ),
        body: <ResultText item={item} />,
        open: failed,
      };
    }
    case 'todo':
      return {
        icon: <PlanIcon />,
        label: t('chat.tool.todo'),
        summary: phase === 'redo' ? t('chat.plan.redoSummary') : todoSummary(item, t, previousTodo),
        body: <TodoBody item={item} previous={previousTodo} redo={phase === 'redo'} />,
        open: failed,
      };
    case 'delegate':
      return {
        icon: <ToolIcon />,
        label: t('chat.tool.delegate'),
        summary: delegateSummary(item.input),
        body: <ResultText item={item} showInput />,
        open: failed,
      };
    default:
      return {
        icon: <ToolIcon />,
        label: item.name,
        summary: compactJson(item.input),
        body: <ResultText item={item} showInput />,
        // As for read_file: a picture the tool gave the agent is what the person wants to see.
        open: failed || Boolean(result?.images?.length),
      };
  }
}

function rangeText(range: { from: number; to: number; total?: number }, t: Translate): string {
  if (Number.isNaN(range.to)) return t('chat.tool.fromLine', { from: range.from });
  const lines = t('chat.tool.lines', { from: range.from, to: range.to });
  return range.total === undefined ? lines : t('chat.tool.linesOf', { lines, total: range.total });
}

function compactJson(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? '';
    return text.length > 120 ? `${text.slice(0, 119)}…` : text;
  } catch {
    return '';
  }
}
