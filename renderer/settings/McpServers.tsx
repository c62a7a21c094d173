import { useEffect, useId, useState } from 'react';
import type { McpList, McpServerInfo } from '../../common/mcp';
import { api } from '../api';
import { useI18n, type Translate } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';
import { RuleRow } from './RuleRow';

const EXAMPLE = '{\n  "command": "npx",\n  "args": ["-y", "@modelcontextprotocol/server-everything"]\n}';

const STATE_LABELS: Record<McpServerInfo['state'], MessageKey> = {
  starting: 'mcp.state.starting',
  running: 'mcp.state.running',
  failed: 'mcp.state.failed',
  stopped: 'mcp.state.stopped',
  untrusted: 'mcp.state.untrusted',
};

/** "mcp:db" → "every tool of the MCP server db"; "tool:mcp__db__query" → "the MCP tool mcp__db__query". */
export function mcpRuleText(rule: string, t: Translate): string {
  if (rule.startsWith('mcp:')) return t('mcp.rule.server', { server: rule.slice('mcp:'.length) });
  if (rule.startsWith('tool:')) return t('mcp.rule.tool', { tool: rule.slice('tool:'.length) });
  return rule;
}

function toolCount(count: number, t: Translate): string {
  return count === 0 ? t('mcp.tools.none') : count === 1 ? t('mcp.tools.one') : t('mcp.tools', { count });
}

type Editing = { previousName?: string; name: string; json: string } | null;

/**
 * The MCP servers section of Settings: each server's state and tools, live (mcp.changed); the
 * person's own servers added, edited and removed as JSON in the common format; the folder's
 * .mcp.json servers behind a one-time trust prompt; the "always allow" list.
 */
export function McpServers() {
  const { t } = useI18n();
  const [list, setList] = useState<McpList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);

  useEffect(() => {
    let live = true;
    void api.request('mcp.list', {}).then((result) => {
      if (!live) return;
      if (result.ok) setList(result.value);
      else setError(result.error.message);
    });
    const off = api.on('mcp.changed', (next) => setList(next));
    return () => {
      live = false;
      off();
    };
  }, []);

  const run = async (request: Promise<{ ok: true; value: McpList } | { ok: false; error: { message: string } }>): Promise<boolean> => {
    const result = await request;
    if (result.ok) {
      setList(result.value);
      setError(null);
      return true;
    }
    setError(result.error.message);
    return false;
  };

  if (!list)
    return error ? (
      <p role="alert" className="error-message">
        {error}
      </p>
    ) : null;
  const project = list.project;
  const untrusted = project.file !== null && !project.trusted && project.serverNames.length > 0;

  return (
    <div className="mcp">
      {untrusted ? (
        <div className="mcp-trust" role="group" aria-label={t('mcp.trust.title')}>
          <strong>{t('mcp.trust.title')}</strong>
          <p>{t('mcp.trust.body', { file: project.file ?? '', names: project.serverNames.join(', ') })}</p>
          <button type="button" className="button button-primary button-small" onClick={() => void run(api.request('mcp.trustProject', { trust: true }))}>
            {t('mcp.trust.button')}
          </button>
        </div>
      ) : project.file !== null && project.trusted ? (
        <p className="field-note mcp-trusted">
          {t('mcp.trust.trusted')}{' '}
          <button type="button" className="button button-small" onClick={() => void run(api.request('mcp.trustProject', { trust: false }))}>
            {t('mcp.trust.revoke')}
          </button>
        </p>
      ) : null}

      {list.configErrors.length > 0 ? (
        <div className="mcp-config-errors" role="alert">
          <strong>{t('mcp.configErrors')}</strong>
          <ul>
            {list.configErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {list.servers.length === 0 ? (
        <p className="field-note">{t('mcp.empty')}</p>
      ) : (
        <ul className="mcp-list">
          {list.servers.map((server) => (
            <ServerRow
              key={`${server.scope}:${server.name}`}
              server={server}
              onRestart={() => void run(api.request('mcp.restart', { scope: server.scope, name: server.name }))}
              onEdit={() => setEditing({ previousName: server.name, name: server.name, json: JSON.stringify(server.config, null, 2) })}
              onRemove={() => void run(api.request('mcp.removeServer', { name: server.name }))}
            />
          ))}
        </ul>
      )}

      {editing ? (
        <ServerForm
          editing={editing}
          onChange={setEditing}
          onCancel={() => setEditing(null)}
          onSave={async (name, config) => {
            const saved = await run(
              api.request('mcp.saveServer', { name, config, ...(editing.previousName !== undefined ? { previousName: editing.previousName } : {}) }),
            );
            if (saved) setEditing(null);
          }}
          onInvalid={setError}
        />
      ) : (
        <button type="button" className="button button-small" onClick={() => setEditing({ name: '', json: EXAMPLE })}>
          {t('mcp.add')}
        </button>
      )}

      {list.alwaysAllowed.length > 0 ? (
        <div className="mcp-always">
          <strong className="field-label">{t('mcp.always.title')}</strong>
          <ul className="rule-list">
            {list.alwaysAllowed.map((rule) => (
              <RuleRow
                key={rule}
                text={mcpRuleText(rule, t)}
                rule={rule}
                actionLabel={t('mcp.always.remove')}
                actionAriaLabel={t('mcp.always.removeNamed', { rule: mcpRuleText(rule, t) })}
                onAction={() => void run(api.request('mcp.setAlwaysAllowed', { rule, allowed: false }))}
              />
            ))}
          </ul>
        </div>
      ) : null}

      {error ? (
        <p role="alert" className="error-message">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ServerRow({ server, onRestart, onEdit, onRemove }: { server: McpServerInfo; onRestart: () => void; onEdit: () => void; onRemove: () => void }) {
  const { t } = useI18n();
  const user = server.scope === 'user';
  return (
    <li className="mcp-server" data-mcp-server={server.name} data-state={server.state}>
      <div className="mcp-server-head">
        <span className="mcp-server-name">{server.name}</span>
        <span className={`mcp-state is-${server.state}`}>{t(STATE_LABELS[server.state])}</span>
        <span className="mcp-scope">{t(user ? 'mcp.scope.user' : 'mcp.scope.project')}</span>
        <span className="mcp-actions">
          {server.state !== 'untrusted' ? (
            <button type="button" className="button button-small" aria-label={t('mcp.restartNamed', { name: server.name })} onClick={onRestart}>
              {t('mcp.restart')}
            </button>
          ) : null}
          {user ? (
            <>
              <button type="button" className="button button-small" aria-label={t('mcp.editNamed', { name: server.name })} onClick={onEdit}>
                {t('mcp.edit')}
              </button>
              <button type="button" className="button button-small" aria-label={t('mcp.removeNamed', { name: server.name })} onClick={onRemove}>
                {t('mcp.remove')}
              </button>
            </>
          ) : null}
        </span>
      </div>
      <code className="mcp-target">{server.target}</code>
      {server.error ? <p className="mcp-error">{server.error}</p> : null}
      {server.stderrTail && server.state === 'failed' ? (
        <details className="mcp-stderr" open>
          <summary>{t('mcp.stderr')}</summary>
          {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
          <pre tabIndex={0} aria-label={t('mcp.stderr')}>
            {server.stderrTail}
          </pre>
        </details>
      ) : null}
      {server.state === 'running' || server.tools.length > 0 ? (
        <details className="mcp-tools">
          <summary>{toolCount(server.tools.length, t)}</summary>
          <ul tabIndex={0} aria-label={toolCount(server.tools.length, t)}>
            {server.tools.map((tool) => (
              <li key={tool.modelName}>
                <code>{tool.modelName}</code>
                {tool.description ? <span className="mcp-tool-description">{tool.description}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

function ServerForm({
  editing,
  onChange,
  onCancel,
  onSave,
  onInvalid,
}: {
  editing: NonNullable<Editing>;
  onChange: (next: Editing) => void;
  onCancel: () => void;
  onSave: (name: string, config: Record<string, unknown>) => Promise<void>;
  onInvalid: (message: string) => void;
}) {
  const { t } = useI18n();
  const nameId = useId();
  const configId = useId();
  const noteId = useId();
  const save = () => {
    let config: unknown;
    try {
      config = JSON.parse(editing.json);
    } catch (error) {
      return onInvalid(t('mcp.form.badJson', { message: (error as Error).message }));
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) return onInvalid(t('mcp.form.badJson', { message: '{ … }' }));
    void onSave(editing.name.trim(), config as Record<string, unknown>);
  };
  return (
    <div className="mcp-form" role="group" aria-label={editing.previousName ? t('mcp.form.editTitle', { name: editing.previousName }) : t('mcp.form.addTitle')}>
      <strong>{editing.previousName ? t('mcp.form.editTitle', { name: editing.previousName }) : t('mcp.form.addTitle')}</strong>
      <label className="field-label" htmlFor={nameId}>
        {t('mcp.form.name')}
      </label>
      <input
        id={nameId}
        className="text-input"
        value={editing.name}
        spellCheck={false}
        onChange={(event) => onChange({ ...editing, name: event.target.value })}
        onKeyDown={(event) => {
          // Enter saves this server, not the settings form around it.
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (editing.name.trim() !== '') save();
          }
        }}
      />
      <label className="field-label" htmlFor={configId}>
        {t('mcp.form.config')}
      </label>
      <textarea
        id={configId}
        className="text-input mcp-json"
        rows={6}
        spellCheck={false}
        aria-describedby={noteId}
        value={editing.json}
        onChange={(event) => onChange({ ...editing, json: event.target.value })}
      />
      <p className="field-note" id={noteId}>
        {t('mcp.form.configNote')}
      </p>
      <div className="mcp-form-actions">
        <button type="button" className="button button-small" onClick={onCancel}>
          {t('mcp.form.cancel')}
        </button>
        <button type="button" className="button button-primary button-small" disabled={editing.name.trim() === ''} onClick={save}>
          {t('mcp.form.save')}
        </button>
      </div>
    </div>
  );
}
