import { describe, expect, it } from 'vitest';
import { SettingsUpdateSchema } from '../../../common/settings';
import { ErrorCodes } from '../../../common/errorCodes';
import { byField, issuesByField, splitFieldErrors } from '../../../renderer/settings/fieldErrors';

const FIELDS = ['baseURL', 'maxTokens', 'model'];

describe('a refused settings save shows each problem under its own field', () => {
  it('takes the fields from the error’s details, not from its English', () => {
    const error = {
      code: ErrorCodes.badRequest,
      message: 'Words no window reads.',
      details: {
        fields: [
          { path: 'baseURL', message: 'Invalid URL' },
          { path: 'maxTokens', message: 'Too big: expected number to be <=128000' },
          { path: 'maxTokens', message: 'Expected an integer' },
        ],
      },
    };
    expect(splitFieldErrors(error, FIELDS)).toEqual({
      fields: { baseURL: 'Invalid URL', maxTokens: 'Too big: expected number to be <=128000; Expected an integer' },
      general: null,
    });
  });

  it('says what names no field of the form above it, with where it is', () => {
    expect(
      byField(
        [
          { path: 'rules.0', message: 'Required' },
          { path: '', message: 'Unrecognized key: "x"' },
        ],
        FIELDS,
      ),
    ).toEqual({
      fields: {},
      general: 'rules.0: Required; payload: Unrecognized key: "x"',
    });
  });

  it('shows the message itself when the error has no field errors', () => {
    expect(splitFieldErrors({ code: ErrorCodes.keyStorage, message: 'The key store is locked.' }, FIELDS)).toEqual({
      fields: {},
      general: 'The key store is locked.',
    });
    expect(splitFieldErrors({ code: ErrorCodes.badRequest, message: 'odd', details: { fields: 'not a list' } }, FIELDS).general).toBe('odd');
  });

  it('sorts the schema’s own issues the same way before anything is sent', () => {
    const checked = SettingsUpdateSchema.safeParse({ maxTokens: Number.NaN });
    expect(checked.success).toBe(false);
    const split = issuesByField(checked.error!.issues, FIELDS);
    expect(Object.keys(split.fields)).toEqual(['maxTokens']);
    expect(split.general).toBeNull();
  });
});
