import { useEffect, useState } from 'react';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';
import { mcpRuleText } from './McpServers';
import { RuleRow } from './RuleRow';

/** "command:npm tail" → "Commands: npm, tail", in the person's language. */
function describeRule(rule: string, t: ReturnType<typeof useI18n>['t']): string {
  if (rule === 'file_change') return t('settings.rules.fileChange');
  if (rule.startsWith('command:')) return t('settings.rules.command', { programs: rule.slice('command:'.length).split(' ').join(', ') });
  if (rule.startsWith('mcp:') || rule.startsWith('tool:mcp__')) return mcpRuleText(rule, t);
  if (rule.startsWith('tool:')) return t('settings.rules.tool', { tool: rule.slice('tool:'.length) });
  return rule;
}

/** The open session's "Allow for this session" rules, each revocable. */
export function ApprovalRules({ hasSession }: { hasSession: boolean }) {
  const { t } = useI18n();
  const [rules, setRules] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api.request('approval.rules', {}).then((result) => {
      if (!live) return;
      if (result.ok) setRules(result.value.rules);
      else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, []);

  const revoke = async (rule: string) => {
    const result = await api.request('approval.revoke', { rule });
    if (result.ok) {
      setRules(result.value.rules);
      setError(null);
    } else setError(result.error.message);
  };

  return (
    <div className="rules">
      {!hasSession ? (
        <p className="field-note">{t('settings.rules.noSession')}</p>
      ) : rules === null ? null : rules.length === 0 ? (
        <p className="field-note">{t('settings.rules.empty')}</p>
      ) : (
        <ul className="rule-list">
          {rules.map((rule) => (
            <RuleRow
              key={rule}
              text={describeRule(rule, t)}
              rule={rule}
              actionLabel={t('settings.rules.revoke')}
              actionAriaLabel={t('settings.rules.revokeNamed', { rule: describeRule(rule, t) })}
              onAction={() => void revoke(rule)}
            />
          ))}
        </ul>
      )}
      {error ? (
        <p role="alert" className="error-message">
          {error}
        </p>
      ) : null}
    </div>
  );
}
