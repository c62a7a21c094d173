import { useEffect, useState } from 'react';
import type { McpList } from '../../common/mcp';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';

/**
 * Said above the composer when the open folder's .mcp.json has servers the person has not
 * trusted (they do not start until then); the trust prompt itself is in Settings.
 */
export function McpTrustBanner({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useI18n();
  const [list, setList] = useState<McpList | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api.request('mcp.list', {}).then((result) => live && result.ok && setList(result.value));
    const off = api.on('mcp.changed', setList);
    return () => {
      live = false;
      off();
    };
  }, []);

  const project = list?.project;
  if (!project || project.file === null || project.trusted || project.serverNames.length === 0 || dismissed === project.file) return null;
  return (
    <div className="no-key-banner mcp-trust-banner" role="note">
      <p>
        <strong>{t('mcp.banner.title')}</strong> {t('mcp.banner.text', { names: project.serverNames.join(', ') })}
      </p>
      <button type="button" className="button button-small" onClick={onOpenSettings}>
        {t('mcp.banner.open')}
      </button>
      <button type="button" className="button button-small" onClick={() => setDismissed(project.file)}>
        {t('mcp.banner.dismiss')}
      </button>
    </div>
  );
}
