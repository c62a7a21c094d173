import { describe, expect, it } from 'vitest';
import { TASK_ERROR_CODES, type TaskErrorCode } from '../../../common/errorCodes';
import { classifyError, RETRY_FIX, SETTINGS_FIX } from '../../../renderer/chat/errorAdvice';
import { translator } from '../../../renderer/i18n/translate';

describe('the error card’s advice comes from main’s code, never from its English', () => {
  it.each<[TaskErrorCode, string, { settings: boolean; retry: boolean }]>([
    ['no_key', 'no_key', { settings: true, retry: true }],
    ['auth', 'auth', { settings: true, retry: true }],
    ['forbidden', 'forbidden', { settings: true, retry: true }],
    ['not_found', 'not_found', { settings: true, retry: true }],
    ['bad_request', 'bad_request', { settings: false, retry: false }],
    ['overloaded', 'overloaded', { settings: false, retry: true }],
    ['connection', 'connection', { settings: true, retry: true }],
    ['max_tokens', 'max_tokens', { settings: true, retry: false }],
    ['too_long', 'too_long', { settings: true, retry: true }],
    ['api', 'other', { settings: false, retry: true }],
    ['internal', 'other', { settings: false, retry: true }],
  ])('%s: the card for %s', (code, kind, offers) => {
    const classified = classifyError(code);
    expect(classified).toBe(kind);
    expect({ settings: SETTINGS_FIX.has(classified), retry: RETRY_FIX.has(classified) }).toEqual(offers);
  });

  it('every code main can send has a card', () => {
    for (const code of TASK_ERROR_CODES) expect(classifyError(code)).toBeTypeOf('string');
  });

  it('an error recorded without a code gets the general card, whatever its words say', () => {
    expect(classifyError(undefined)).toBe('other');
  });

  it('the new card for a conversation too long is said in both languages', () => {
    for (const t of [translator('en'), translator('zh-CN')]) {
      expect(t('chat.error.tooLong')).not.toBe('chat.error.tooLong');
      expect(t('chat.error.tooLongHelp')).not.toBe('chat.error.tooLongHelp');
    }
    expect(translator('zh-CN')('chat.error.tooLong')).not.toBe(translator('en')('chat.error.tooLong'));
  });
});
