import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { APPROVAL_MODES, type ApprovalMode } from '../../common/approvalModes';
import type { RequestInput, RequestOutput } from '../../common/contract';
import { SettingsUpdateSchema, type Language, type SettingsUpdate, type SettingsView, type Theme } from '../../common/settings';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { CloseIcon } from '../ui/icons';
import type { SettingsState } from '../app/useSettings';
import { useI18n, type Translate } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';
import { MODE_DESCRIPTIONS, MODE_LABELS } from '../status/ApprovalModeMenu';
import { ApiKeyField, type KeyStorageChoice } from './ApiKeyField';
import { ApprovalRules } from './ApprovalRules';
import { McpServers } from './McpServers';
import { ContextFields, contextHintParams } from './ContextFields';
import { percentOf, shareOf, tokensOf } from './contextDraft';
import { Field } from './Field';
import { ModelProfileSummary } from './ModelProfileSummary';
import { WebSearchField } from './WebSearchField';
import { hostsOf, NetworkAllowField } from './NetworkAllowField';
import { SourceTag } from './SourceTag';
import type { Effort, ModelProfileView, ThinkingSetting, WebSearchSetting } from '../../common/modelCapabilities';
import { ThinkingEffortFields } from './ThinkingEffortFields';
import { issuesByField, splitFieldErrors } from './fieldErrors';

interface Draft {
  apiKey: string;
  keyStorage: KeyStorageChoice;
  baseURL: string;
  model: string;
  maxTokens: string;
  approvalMode: ApprovalMode;
  reminderRounds: string;
  gateBound: string;
  /** Tokens as typed; empty is the default. */
  contextWindow: string;
  /** A percentage of the window as typed; empty is the default. */
  compactAt: string;
  /** The settings file's network.allow, one host a line. */
  networkAllow: string;
  webSearch: WebSearchSetting;
  thinking: ThinkingSetting;
  /** '' is "not set": the default applies. */
  effort: Effort | '';
}

/** Suggested when the endpoint lists no models. */
const KNOWN_MODELS = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'];

const FIELDS = [
  'apiKey',
  'baseURL',
  'model',
  'maxTokens',
  'reminderRounds',
  'gateBound',
  'contextWindow',
  'compactAt',
  'approvalMode',
  'keyStorage',
  'networkAllow',
] as const;

const FIELD_HINTS: Partial<Record<(typeof FIELDS)[number], MessageKey>> = {
  apiKey: 'settings.error.apiKey',
  baseURL: 'settings.error.baseURL',
  model: 'settings.error.model',
  maxTokens: 'settings.error.maxTokens',
  reminderRounds: 'settings.error.reminderRounds',
  gateBound: 'settings.error.gateBound',
  contextWindow: 'settings.error.contextWindow',
  compactAt: 'settings.error.compactAt',
};

const THEMES: { value: Theme; label: MessageKey }[] = [
  { value: 'system', label: 'settings.theme.system' },
  { value: 'light', label: 'settings.theme.light' },
  { value: 'dark', label: 'settings.theme.dark' },
];

/** Language names are written in their own language, so anyone can find theirs. */
const LANGUAGE_CHOICES: { value: Language; label: MessageKey | string }[] = [
  { value: 'system', label: 'settings.language.system' },
  { value: 'en', label: 'English' },
  { value: 'zh-CN', label: '简体中文' },
];

function draftOf(view: SettingsView): Draft {
  return {
    apiKey: '',
    keyStorage: 'this_session',
    baseURL: view.baseURL,
    model: view.model,
    maxTokens: String(view.maxTokens),
    approvalMode: view.approvalMode,
    reminderRounds: String(view.reminderRounds),
    gateBound: String(view.gateBound),
    contextWindow: view.contextWindow === null ? '' : String(view.contextWindow),
    compactAt: view.compactAt === null ? '' : percentOf(view.compactAt),
    networkAllow: view.networkAllow.join('\n'),
    webSearch: view.webSearch,
    thinking: view.thinking,
    effort: view.effort ?? '',
  };
}

/** A typed number as the contract reads it; anything else goes as NaN (null on the wire) and is refused there. */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

type ConnectionResult = RequestOutput<'settings.testConnection'> & { unsaved: boolean };

/** The connection fields as typed, where they differ from what is saved (and the environment does not override them). */
function connectionDraft(draft: Draft, view: SettingsView): RequestInput<'settings.testConnection'> {
  const overridden = new Set(view.environmentOverrides);
  const input: RequestInput<'settings.testConnection'> = {};
  if (draft.apiKey.trim() !== '' && !overridden.has('apiKey')) input.apiKey = draft.apiKey.trim();
  if (!overridden.has('baseURL') && draft.baseURL.trim() !== view.baseURL) input.baseURL = draft.baseURL.trim();
  if (!overridden.has('model') && draft.model.trim() !== '' && draft.model.trim() !== view.model) input.model = draft.model.trim();
  return input;
}

/** main's English as it is (it names the URL and the API's own words); other languages get the code's sentence. */
function connectionText(test: ConnectionResult, language: string, t: Translate): string {
  if (test.code === 'connected')
    return test.answer ? t('settings.test.answered', { model: test.model, answer: test.answer }) : t('settings.test.reached', { model: test.model });
  if (language === 'en') return test.message;
  return t(`settings.test.code.${test.code}`, { model: test.model });
}

/** Only what changed, and never a field the environment overrides. */
function patchOf(draft: Draft, view: SettingsView): SettingsUpdate {
  const patch: SettingsUpdate = {};
  const overridden = new Set(view.environmentOverrides);
  if (draft.apiKey.trim() !== '' && !overridden.has('apiKey')) {
    patch.apiKey = draft.apiKey.trim();
    if (view.apiKey.storage === 'unprotected') patch.keyStorage = draft.keyStorage;
  }
  if (!overridden.has('baseURL') && draft.baseURL.trim() !== view.baseURL) patch.baseURL = draft.baseURL.trim();
  if (!overridden.has('model') && draft.model.trim() !== view.model) patch.model = draft.model.trim();
  if (draft.maxTokens.trim() !== String(view.maxTokens)) patch.maxTokens = numberOf(draft.maxTokens);
  if (draft.approvalMode !== view.approvalMode) patch.approvalMode = draft.approvalMode;
  if (!overridden.has('webSearch') && draft.webSearch !== view.webSearch) patch.webSearch = draft.webSearch;
  if (!overridden.has('thinking') && draft.thinking !== view.thinking) patch.thinking = draft.thinking;
  const effort = draft.effort === '' ? null : draft.effort;
  if (!overridden.has('effort') && effort !== view.effort) patch.effort = effort;
  if (draft.reminderRounds.trim() !== String(view.reminderRounds)) patch.reminderRounds = numberOf(draft.reminderRounds);
  if (draft.gateBound.trim() !== String(view.gateBound)) patch.gateBound = numberOf(draft.gateBound);
  const contextWindow = tokensOf(draft.contextWindow);
  if (!overridden.has('contextWindow') && contextWindow !== view.contextWindow) patch.contextWindow = contextWindow;
  const compactAt = shareOf(draft.compactAt);
  if (compactAt !== view.compactAt) patch.compactAt = compactAt;
  const hosts = hostsOf(draft.networkAllow);
  if (hosts.join('\n') !== view.networkAllow.join('\n')) patch.networkAllow = hosts;
  return patch;
}

export interface SettingsDialogProps {
  settings: SettingsState;
  hasSession: boolean;
  /** What the agent runs with for the saved model (the endpoint's catalogue included); null until main answered. */
  profile: ModelProfileView | null;
  onClose(): void;
  /** Where the focus goes on close when what opened the dialog is gone. */
  fallbackFocus?: () => HTMLElement | null;
  /** Opened to connect a model: the focus starts in the API key field. */
  focusKey?: boolean;
}

/**
 * The settings, in a modal dialog (focus stays inside, Escape closes). The model connection and the
 * agent's behaviour are saved together with Save; theme and language apply at once. Errors from
 * the contract are shown under the field they concern. The API key itself never reaches this
 * window: only its masked form and where it comes from.
 */
export function SettingsDialog({ settings, hasSession, profile, onClose, fallbackFocus, focusKey = false }: SettingsDialogProps) {
  const { t, language } = useI18n();
  const view = settings.view;
  const [draft, setDraft] = useState<Draft | null>(() => (view ? draftOf(view) : null));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [saved, setSaved] = useState<SettingsUpdate | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [test, setTest] = useState<ConnectionResult | null>(null);
  const [appearanceError, setAppearanceError] = useState<string | null>(null);
  /** Shown checked at once; main's answer confirms (or, on an error, puts the stored one back). */
  const [appearance, setAppearanceShown] = useState<{ theme: Theme; language: Language } | null>(null);
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  /** Counts refused saves: each takes the focus to the first field marked, scrolled into view. */
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  if (view && draft === null) setDraft(draftOf(view));

  const change = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((current) => (current ? { ...current, [field]: value } : current));
    setSaved(null);
    setFieldErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const dirty = view !== null && draft !== null && Object.keys(patchOf(draft, view)).length > 0;

  /** Resolves true when there was nothing to save or main stored it. */
  const save = async (): Promise<boolean> => {
    if (!view || !draft) return false;
    const patch = patchOf(draft, view);
    if (Object.keys(patch).length === 0) return true;
    // The contract's own schema, checked here first: a NaN would cross a WebSocket as null, which
    // for the context fields means "the default", so a typo would be saved as a reset.
    const checked = SettingsUpdateSchema.safeParse(patch);
    if (!checked.success) {
      const issues = issuesByField(checked.error.issues, FIELDS);
      setFieldErrors(issues.fields);
      setGeneralError(issues.general);
      setSaved(null);
      return false;
    }
    const result = await settings.update(patch);
    if (result.ok) {
      setDraft(draftOf(result.value));
      setFieldErrors({});
      setGeneralError(null);
      setSaved(patch);
      return true;
    }
    const split = splitFieldErrors(result.error, FIELDS);
    setFieldErrors(split.fields);
    setGeneralError(split.general);
    setSaved(null);
    return false;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy('save');
    setTest(null);
    const stored = await save();
    setBusy(null);
    if (!stored) setRefusals((count) => count + 1);
  };

  /** Tests the connection as typed, saving nothing: Save keeps the values once they work. */
  const testConnection = async () => {
    if (!view || !draft) return;
    setBusy('test');
    setTest(null);
    const input = connectionDraft(draft, view);
    const result = await api.request('settings.testConnection', input);
    const unsaved = Object.keys(input).length > 0;
    setTest(result.ok ? { ...result.value, unsaved } : { ok: false, code: 'api', model: draft.model, message: result.error.message, unsaved });
    setBusy(null);
  };

  const shownTheme = appearance?.theme ?? view?.theme ?? 'system';
  const shownLanguage = appearance?.language ?? view?.language ?? 'system';

  const setAppearance = async (patch: { theme: Theme } | { language: Language }) => {
    setAppearanceShown({ theme: shownTheme, language: shownLanguage, ...patch });
    const result = await settings.update(patch);
    setAppearanceError(result.ok ? null : result.error.message);
    setAppearanceShown(null);
  };

  const errorFor = (field: (typeof FIELDS)[number]) => {
    const detail = fieldErrors[field];
    if (!detail) return null;
    const hint = FIELD_HINTS[field];
    // The context hints already say the contract's range, in the person's language: its English adds nothing.
    const own = field === 'contextWindow' || field === 'compactAt';
    return (
      <p className="error-message field-error" id={`${id}-${field}-error`} role="alert">
        {own ? t(hint!, contextHintParams(language)[field]) : hint ? `${t(hint)} (${detail})` : detail}
      </p>
    );
  };
  const describedBy = (field: (typeof FIELDS)[number], note?: string) =>
    [fieldErrors[field] ? `${id}-${field}-error` : '', note ?? ''].filter(Boolean).join(' ') || undefined;
  const savedText = () => {
    if (!saved) return '';
    const mode = saved.approvalMode;
    return mode && hasSession ? t('settings.savedMode', { mode: t(MODE_LABELS[mode]) }) : t('settings.saved');
  };
  const overridden = (field: string) => view?.environmentOverrides.includes(field) ?? false;
  const listedModels = (profile?.models ?? []).filter((model) => !model.deprecated).map((model) => model.id);
  const suggestedModels = listedModels.length > 0 ? listedModels : KNOWN_MODELS;
  const modelsNote = profile ? (listedModels.length > 0 ? t('profile.models.count', { count: listedModels.length }) : t('profile.models.none')) : undefined;

  return (
    <Dialog labelledBy={`${id}-title`} onClose={onClose} className="dialog-settings" {...(fallbackFocus ? { fallbackFocus } : {})}>
      <div className="dialog-head">
        <h2 id={`${id}-title`} className="dialog-title">
          {t('settings.title')}
        </h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} title={t('common.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>

      {view === null || draft === null ? (
        <div className="dialog-body">
          {settings.loadError ? (
            <p role="alert" className="error-message">
              {settings.loadError}
            </p>
          ) : (
            <p className="field-note">{t('common.loading')}</p>
          )}
        </div>
      ) : (
        <form className="settings-form" ref={form} onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className="dialog-body settings-body">
            <Section title={t('settings.section.connection')}>
              <ApiKeyField
                view={view}
                value={draft.apiKey}
                storage={draft.keyStorage}
                onChange={(value) => change('apiKey', value)}
                onStorage={(value) => change('keyStorage', value)}
                onForget={async () => {
                  const result = await settings.update({ apiKey: null });
                  setGeneralError(result.ok ? null : result.error.message);
                }}
                error={errorFor('apiKey')}
                describedBy={describedBy('apiKey')}
                autoFocus={focusKey}
              />

              <Field
                label={t('settings.baseURL')}
                htmlFor={`${id}-baseURL`}
                source={view.sources.baseURL}
                note={overridden('baseURL') ? t('settings.env.baseURL') : t('settings.baseURL.note')}
                noteId={`${id}-baseURL-note`}
              >
                <input
                  id={`${id}-baseURL`}
                  className="text-input mono"
                  type="url"
                  inputMode="url"
                  placeholder="https://api.anthropic.com"
                  value={draft.baseURL}
                  readOnly={overridden('baseURL')}
                  onChange={(event) => change('baseURL', event.target.value)}
                  aria-invalid={fieldErrors.baseURL ? true : undefined}
                  aria-describedby={describedBy('baseURL', `${id}-baseURL-note`)}
                  spellCheck={false}
                  autoComplete="off"
                />
                {errorFor('baseURL')}
              </Field>

              <Field
                label={t('settings.model')}
                htmlFor={`${id}-model`}
                source={view.sources.model}
                note={overridden('model') ? t('settings.env.model') : modelsNote}
                noteId={`${id}-model-note`}
              >
                <input
                  id={`${id}-model`}
                  className="text-input mono"
                  list={`${id}-models`}
                  value={draft.model}
                  readOnly={overridden('model')}
                  onChange={(event) => change('model', event.target.value)}
                  aria-invalid={fieldErrors.model ? true : undefined}
                  aria-describedby={describedBy('model', `${id}-model-note`)}
                  spellCheck={false}
                  autoComplete="off"
                />
                <datalist id={`${id}-models`}>
                  {suggestedModels.map((model) => (
                    <option key={model} value={model} />
                  ))}
                </datalist>
                {profile?.deprecated && profile.model === draft.model.trim() ? (
                  <p className="field-warning" role="note">
                    {t('profile.deprecated', { model: profile.model })}
                  </p>
                ) : null}
                {errorFor('model')}
              </Field>

              {profile ? <ModelProfileSummary profile={profile} /> : null}

              <WebSearchField id={id} view={view} value={draft.webSearch} onChange={(value) => change('webSearch', value)} />

              <ThinkingEffortFields
                id={id}
                view={view}
                profile={profile}
                thinking={draft.thinking}
                effort={draft.effort}
                onThinking={(value) => change('thinking', value)}
                onEffort={(value) => change('effort', value)}
              />

              <div className="test-connection">
                <button type="button" className="button" onClick={() => void testConnection()} disabled={busy !== null}>
                  {busy === 'test' ? t('settings.test.running') : t('settings.test.button')}
                </button>
                {test ? (
                  <p className={`test-result ${test.ok ? 'is-ok' : 'is-error'}`} role={test.ok ? 'status' : 'alert'}>
                    <strong>{t(test.ok ? 'settings.test.ok' : 'settings.test.failed')}</strong> {connectionText(test, language, t)}
                    {test.unsaved ? <span className="test-unsaved"> {t(test.ok ? 'settings.test.unsavedOk' : 'settings.test.unsaved')}</span> : null}
                  </p>
                ) : null}
              </div>
            </Section>

            <Section title={t('settings.section.agent')}>
              <div className="field-grid">
                <Field
                  label={t('settings.maxTokens')}
                  htmlFor={`${id}-maxTokens`}
                  source={view.sources.maxTokens}
                  note={t('settings.maxTokens.note')}
                  noteId={`${id}-maxTokens-note`}
                >
                  <input
                    id={`${id}-maxTokens`}
                    className="text-input"
                    type="number"
                    min={1}
                    max={1_000_000}
                    step={1}
                    value={draft.maxTokens}
                    onChange={(event) => change('maxTokens', event.target.value)}
                    aria-invalid={fieldErrors.maxTokens ? true : undefined}
                    aria-describedby={describedBy('maxTokens', `${id}-maxTokens-note`)}
                  />
                  {errorFor('maxTokens')}
                </Field>
                <Field
                  label={t('settings.reminderRounds')}
                  htmlFor={`${id}-reminderRounds`}
                  source={view.sources.reminderRounds}
                  note={t('settings.reminderRounds.note')}
                  noteId={`${id}-reminderRounds-note`}
                >
                  <input
                    id={`${id}-reminderRounds`}
                    className="text-input"
                    type="number"
                    min={1}
                    max={100}
                    step={1}
                    value={draft.reminderRounds}
                    onChange={(event) => change('reminderRounds', event.target.value)}
                    aria-invalid={fieldErrors.reminderRounds ? true : undefined}
                    aria-describedby={describedBy('reminderRounds', `${id}-reminderRounds-note`)}
                  />
                  {errorFor('reminderRounds')}
                </Field>
                <Field
                  label={t('settings.gateBound')}
                  htmlFor={`${id}-gateBound`}
                  source={view.sources.gateBound}
                  note={t('settings.gateBound.note')}
                  noteId={`${id}-gateBound-note`}
                >
                  <input
                    id={`${id}-gateBound`}
                    className="text-input"
                    type="number"
                    min={0}
                    max={20}
                    step={1}
                    value={draft.gateBound}
                    onChange={(event) => change('gateBound', event.target.value)}
                    aria-invalid={fieldErrors.gateBound ? true : undefined}
                    aria-describedby={describedBy('gateBound', `${id}-gateBound-note`)}
                  />
                  {errorFor('gateBound')}
                </Field>
              </div>

              <fieldset className="choice-group">
                <legend className="field-label">
                  {t('settings.approvalMode')} <SourceTag source={view.sources.approvalMode} />
                </legend>
                <p className="field-note" id={`${id}-approval-note`}>
                  {t(hasSession ? 'settings.approvalMode.noteSession' : 'settings.approvalMode.note')}
                </p>
                {APPROVAL_MODES.map((mode) => (
                  <label key={mode} className="choice">
                    <input
                      type="radio"
                      name={`${id}-approval`}
                      value={mode}
                      checked={draft.approvalMode === mode}
                      onChange={() => change('approvalMode', mode)}
                    />
                    <span className="choice-text">
                      <span className="choice-label">{t(MODE_LABELS[mode])}</span>
                      <span className="choice-description">{t(MODE_DESCRIPTIONS[mode])}</span>
                    </span>
                  </label>
                ))}
              </fieldset>

              <NetworkAllowField
                id={id}
                view={view}
                value={draft.networkAllow}
                onChange={(value) => change('networkAllow', value)}
                invalid={fieldErrors.networkAllow !== undefined}
                error={errorFor('networkAllow')}
                describedBy={(note) => describedBy('networkAllow', note)}
              />
            </Section>

            <Section title={t('settings.section.context')} note={t('settings.section.context.note')}>
              <ContextFields
                id={id}
                view={view}
                contextWindow={draft.contextWindow}
                compactAt={draft.compactAt}
                onChange={change}
                invalid={(field) => fieldErrors[field] !== undefined}
                errorFor={errorFor}
                describedBy={describedBy}
                listedWindow={profile?.contextWindow.source === 'endpoint' ? profile.contextWindow.value : undefined}
              />
            </Section>

            <Section title={t('settings.section.appearance')} note={t('settings.section.appearance.note')}>
              <fieldset className="segmented-field">
                <legend className="field-label">{t('settings.theme')}</legend>
                <div className="segmented">
                  {THEMES.map(({ value, label }) => (
                    <label key={value} className="segment">
                      <input
                        type="radio"
                        name={`${id}-theme`}
                        value={value}
                        checked={shownTheme === value}
                        onChange={() => void setAppearance({ theme: value })}
                      />
                      <span>{t(label)}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <fieldset className="segmented-field">
                <legend className="field-label">{t('settings.language')}</legend>
                <div className="segmented">
                  {LANGUAGE_CHOICES.map(({ value, label }) => (
                    <label key={value} className="segment">
                      <input
                        type="radio"
                        name={`${id}-language`}
                        value={value}
                        checked={shownLanguage === value}
                        onChange={() => void setAppearance({ language: value })}
                      />
                      <span lang={value === 'system' ? undefined : value}>{value === 'system' ? t(label as MessageKey) : label}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
              {appearanceError ? (
                <p role="alert" className="error-message">
                  {appearanceError}
                </p>
              ) : null}
            </Section>

            <Section title={t('settings.section.rules')} note={t('settings.section.rules.note')}>
              <ApprovalRules hasSession={hasSession} />
            </Section>

            <Section title={t('settings.section.mcp')} note={t('settings.section.mcp.note')}>
              <McpServers />
            </Section>
          </div>

          <div className="dialog-actions">
            <div className="dialog-feedback">
              {generalError ? (
                <p role="alert" className="error-message">
                  {generalError}
                </p>
              ) : Object.keys(fieldErrors).length > 0 ? (
                <p className="error-message">{t('settings.notSaved')}</p>
              ) : (
                <p role="status" className="saved-note">
                  {savedText()}
                </p>
              )}
            </div>
            <button type="button" className="button" onClick={onClose}>
              {t('common.close')}
            </button>
            <button type="submit" className="button button-primary" disabled={!dirty || busy !== null}>
              {busy === 'save' ? t('settings.saving') : t('settings.save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function Section({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <div className="settings-section-head">
        <h3 id={id} className="section-title">
          {title}
        </h3>
        {note ? <p className="section-note">{note}</p> : null}
      </div>
      {children}
    </section>
  );
}
