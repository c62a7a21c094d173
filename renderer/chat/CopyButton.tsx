import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { CheckIcon, CopyIcon } from '../ui/icons';

/** Copies `text`; says "Copied" for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button type="button" className="copy-button" onClick={() => void copy(text).then(setCopied)} aria-label={label}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{copied ? t('chat.code.copied') : t('chat.code.copyShort')}</span>
    </button>
  );
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (e.g. an unfocused page): the old way still works in a user gesture.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'copy-scratch';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}
