import type { Translate } from './I18nProvider';
import type { MessageKey } from './messages';

/** English needs "1 file" / "2 files"; Chinese has one form (both keys exist in every language). */
export function plural(t: Translate, count: number, one: MessageKey, other: MessageKey, params: Record<string, string | number> = {}): string {
  return t(count === 1 ? one : other, { count, ...params });
}
