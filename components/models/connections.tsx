'use client';
// Settings → Models → Connections: the OpenAI-compatible servers (the environment's, marked as such, and those added
// here), added, edited, removed and tested. A key typed here goes to the server and never comes back: the page only
// learns that one is set.
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import * as actions from '@/app/actions/models';
import { imageModelOf, type CapabilityHints } from '@/lib/llm/capabilities';
import type { ServerModelsResult } from '@/lib/llm/server-models';
import type { ConnectionView } from '@/lib/models/service';
import { failureText, useCodedText } from '../chat/server-text';
import { useConfirm } from '../confirm-dialog';
import { FIELD, PRIMARY_BUTTON } from '../runs/modal';
import { useConnectionName } from './connection-name';
import { ModelRatesFields, rateRows, ratesOf, RatesSummary, useRatesProblemText } from './model-rates';
import { useModels } from './models-store';

const BUTTON =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';

/** What Test connection said, shown under the form or the connection. */
export function TestResult({ result }: { result: ServerModelsResult | string }) {
  const t = useTranslations('models');
  if (typeof result === 'string')
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {result}
      </p>
    );
  if (result.ok)
    return (
      <p role="status" className="text-sm text-green-800 dark:text-green-300">
        {t('testOk', { n: result.models.length })}{' '}
        <span className="text-neutral-700 dark:text-neutral-300">
          {result.models
            .slice(0, 8)
            .map((m) => m.id)
            .join(', ')}
        </span>
      </p>
    );
  return (
    <div role="alert" className="text-sm text-red-700 dark:text-red-300">
      <strong>{t(`problems.${result.problem}`)}</strong> <span>{result.message}</span>
    </div>
  );
}

type ToolsChoice = 'auto' | 'native' | 'text';
type VisionChoice = 'auto' | 'yes' | 'no';

function toolsChoice(h?: CapabilityHints): ToolsChoice {
  return h?.tools === undefined ? 'auto' : h.tools ? 'native' : 'text';
}
function visionChoice(h?: CapabilityHints): VisionChoice {
  return h?.vision === undefined ? 'auto' : h.vision ? 'yes' : 'no';
}
function hintsOf(tools: ToolsChoice, vision: VisionChoice): CapabilityHints {
  const hints: CapabilityHints = {};
  if (tools !== 'auto') hints.tools = tools === 'native';
  if (vision !== 'auto') hints.vision = vision === 'yes';
  return hints;
}

/** The capabilities with `imageModel` (image_gen's, through the connection's images endpoint) the one model marked as
 *  making images; none when it is empty. */
function withImageModel(capabilities: Record<string, CapabilityHints>, imageModel: string) {
  const out: Record<string, CapabilityHints> = {};
  for (const [model, { imageGeneration: _, ...hints }] of Object.entries(capabilities))
    if (model === '*' || Object.keys(hints).length) out[model] = hints;
  const model = imageModel.trim();
  if (model && model !== '*') out[model] = { ...out[model], imageGeneration: true };
  return out;
}

/** Why saving a URL takes an explicit "save anyway": what Test found, or why Save was refused. */
type Unsaved = 'not-openai' | 'unreachable' | 'unauthorized' | 'http';

const UNSAVED_BY_PROBLEM: Partial<Record<string, Unsaved>> = {
  'not-openai': 'not-openai',
  unreachable: 'unreachable',
  timeout: 'unreachable',
  unauthorized: 'unauthorized',
  http: 'http',
};
const UNSAVED_BY_CODE: Partial<Record<string, Unsaved>> = {
  'not-openai': 'not-openai',
  'connection-unreachable': 'unreachable',
  'connection-unauthorized': 'unauthorized',
  'connection-http': 'http',
};
const SAVE_ANYWAY = {
  'not-openai': 'saveAnyway',
  unreachable: 'saveAnywayUnreachable',
  unauthorized: 'saveAnywayUnauthorized',
  http: 'saveAnywayHttp',
} as const;

/** The add or edit form. `editing` is the connection being changed (its key is kept unless a new one is typed). */
function ConnectionForm({ editing, onDone }: { editing?: ConnectionView; onDone: (saved?: ConnectionView) => void }) {
  const t = useTranslations('models');
  const id = useId();
  const [name, setName] = useState(editing?.name ?? '');
  const [baseURL, setBaseURL] = useState(editing?.baseURL ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [tools, setTools] = useState<ToolsChoice>(toolsChoice(editing?.capabilities['*']));
  const [vision, setVision] = useState<VisionChoice>(visionChoice(editing?.capabilities['*']));
  const [imageModel, setImageModel] = useState(() => imageModelOf(editing?.capabilities ?? {}) ?? '');
  const [rates, setRates] = useState(() => rateRows(editing?.rates));
  const ratesProblem = useRatesProblemText();
  const [busy, setBusy] = useState<'test' | 'save' | undefined>();
  const [result, setResult] = useState<ServerModelsResult | string>();
  // Test or Save could not list the server's models (nothing answers, the key was refused, an error, no
  // OpenAI-compatible server): saving it then takes an explicit "save anyway".
  const [unsaved, setUnsaved] = useState<Unsaved>();
  const [saveAnyway, setSaveAnyway] = useState(false);
  const changed = () => {
    setUnsaved(undefined);
    setSaveAnyway(false);
  };
  const said = useCodedText('errors');

  // A key left empty while editing keeps the stored one; "remove the key" sends none.
  const keyField = (): string | null | undefined => (apiKey ? apiKey : clearKey ? null : editing ? undefined : null);

  const test = async () => {
    setBusy('test');
    const r = await actions.testConnection({ id: editing?.id, baseURL, apiKey: keyField() });
    setBusy(undefined);
    setResult(r.ok ? r.value : said(failureText(r)));
    setUnsaved(r.ok && !r.value.ok ? UNSAVED_BY_PROBLEM[r.value.problem] : undefined);
  };
  const save = async () => {
    const rated = ratesOf(rates);
    if ('problem' in rated) return setResult(ratesProblem(rated.problem));
    setBusy('save');
    const capabilities = withImageModel({ ...editing?.capabilities, '*': hintsOf(tools, vision) }, imageModel);
    const input = { name, baseURL, apiKey: keyField(), capabilities, rates: rated.rates, saveAnyway };
    const r = editing ? await actions.updateConnection(editing.id, input) : await actions.addConnection(input);
    setBusy(undefined);
    // Refused: what was typed stays in the form, with why.
    if (!r.ok) {
      const why = r.code && UNSAVED_BY_CODE[r.code];
      if (why) setUnsaved(why);
      return setResult(said(failureText(r)));
    }
    onDone(r.value);
  };

  return (
    <form
      aria-label={editing ? t('editTitle', { name: editing.name }) : t('addTitle')}
      className="space-y-2 rounded-md border border-neutral-200 p-3 dark:border-neutral-800"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h4 className="font-medium">{editing ? t('editTitle', { name: editing.name }) : t('addTitle')}</h4>
      <label className="flex flex-col gap-1 text-sm">
        <span>{t('name')}</span>
        <input className={FIELD} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>{t('baseURL')}</span>
        <input
          className={FIELD}
          value={baseURL}
          onChange={(e) => {
            setBaseURL(e.target.value);
            changed();
          }}
          placeholder={t('baseURLExample')}
          inputMode="url"
          required
        />
      </label>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`${id}-key`}>{t('apiKey')}</label>
        <input
          id={`${id}-key`}
          className={FIELD}
          type="password"
          autoComplete="off"
          value={apiKey}
          aria-describedby={`${id}-key-help`}
          onChange={(e) => {
            setApiKey(e.target.value);
            changed();
          }}
        />
        <span id={`${id}-key-help`} className="text-xs text-neutral-600 dark:text-neutral-400">
          {editing?.keySet ? t('keyKept') : t('keyHelp')}
        </span>
        {editing?.keySet && (
          <label className="flex items-center gap-2 text-xs">
            <input
              type="checkbox"
              checked={clearKey}
              onChange={(e) => {
                setClearKey(e.target.checked);
                changed();
              }}
            />
            {t('removeKey')}
          </label>
        )}
      </div>
      <div className="grid grid-cols-2 gap-2 text-sm">
        <label className="flex flex-col gap-1">
          <span>{t('caps.toolCalls')}</span>
          <select className={FIELD} value={tools} onChange={(e) => setTools(e.target.value as ToolsChoice)}>
            <option value="auto">{t('caps.auto')}</option>
            <option value="native">{t('caps.native')}</option>
            <option value="text">{t('caps.text')}</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>{t('caps.images')}</span>
          <select className={FIELD} value={vision} onChange={(e) => setVision(e.target.value as VisionChoice)}>
            <option value="auto">{t('caps.auto')}</option>
            <option value="yes">{t('caps.yes')}</option>
            <option value="no">{t('caps.no')}</option>
          </select>
        </label>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`${id}-image-model`}>{t('imageModel')}</label>
        <input
          id={`${id}-image-model`}
          className={FIELD}
          value={imageModel}
          aria-describedby={`${id}-image-model-help`}
          onChange={(e) => setImageModel(e.target.value)}
        />
        <span id={`${id}-image-model-help`} className="text-xs text-neutral-600 dark:text-neutral-400">
          {t('imageModelHelp')}
        </span>
      </div>
      <ModelRatesFields rows={rates} onChange={setRates} />
      {unsaved && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={saveAnyway} onChange={(e) => setSaveAnyway(e.target.checked)} />
          {t(SAVE_ANYWAY[unsaved])}
        </label>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={BUTTON} disabled={Boolean(busy)} onClick={() => void test()}>
          {busy === 'test' ? t('testing') : t('test')}
        </button>
        <button type="submit" className={PRIMARY_BUTTON} disabled={Boolean(busy)}>
          {busy === 'save' ? t('saving') : t('save')}
        </button>
        <button type="button" className={BUTTON} onClick={() => onDone()}>
          {t('cancel')}
        </button>
      </div>
      {result && <TestResult result={result} />}
    </form>
  );
}

function ConnectionRow({ c, onEdit }: { c: ConnectionView; onEdit: () => void }) {
  const t = useTranslations('models');
  const connectionName = useConnectionName();
  const [result, setResult] = useState<ServerModelsResult | string>();
  const [busy, setBusy] = useState(false);
  const { dialog: confirmDialog, ask } = useConfirm();
  const said = useCodedText('errors');
  // Only the admin can change the server's environment; anyone else is told who can.
  const admin = useModels((s) => s.admin);
  const name = connectionName(c.name, c.id);
  return (
    <li aria-label={name} className="space-y-1 rounded-md border border-neutral-200 p-2 dark:border-neutral-800">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{name}</span>
        {c.source === 'environment' && (
          <span className="rounded bg-neutral-200 px-1 text-xs dark:bg-neutral-800">{t('fromEnvironment')}</span>
        )}
        {c.baseURL && <code className="text-xs break-all">{c.baseURL}</code>}
        <span className="text-xs text-neutral-600 dark:text-neutral-400">{c.keySet ? t('keySet') : t('noKey')}</span>
      </div>
      {c.keyProblem && <p className="text-xs text-red-700 dark:text-red-300">{c.keyProblem}</p>}
      <RatesSummary rates={c.rates} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const r = await actions.testConnection({ id: c.id });
            setBusy(false);
            setResult(r.ok ? r.value : said(failureText(r)));
          }}
        >
          {busy ? t('testing') : t('test')}
        </button>
        {c.editable && (
          <>
            <button type="button" className={BUTTON} onClick={onEdit} data-edit-connection={c.id}>
              {t('edit')}
            </button>
            <button
              type="button"
              className={BUTTON}
              onClick={async () => {
                const yes = await ask({
                  title: t('removeConfirm', { name: c.name }),
                  confirm: t('remove'),
                  cancel: t('cancel'),
                });
                if (!yes) return;
                const r = await actions.removeConnection(c.id);
                if (!r.ok) setResult(said(failureText(r)));
                await useModels.getState().refresh();
              }}
            >
              {t('remove')}
            </button>
          </>
        )}
      </div>
      {c.source === 'environment' && (
        <p className="text-xs text-neutral-600 dark:text-neutral-400">{t(admin ? 'envHelp' : 'envHelpUser')}</p>
      )}
      {confirmDialog}
      {result && <TestResult result={result} />}
    </li>
  );
}

export function Connections() {
  const t = useTranslations('models');
  const connections = useModels((s) => s.connections);
  const [form, setForm] = useState<'add' | string | undefined>(connections.length ? undefined : 'add');
  // The form goes when it is done: the focus goes to the connection's Edit button (once it is listed), or back to
  // the button that opened the form, not to the page.
  const section = useRef<HTMLElement>(null);
  const focusNext = useRef<string>(undefined);
  useEffect(() => {
    const target = focusNext.current && section.current?.querySelector<HTMLElement>(focusNext.current);
    if (!target) return;
    focusNext.current = undefined;
    target.focus();
  });
  const done = async (saved?: ConnectionView) => {
    const id = saved?.id ?? (form === 'add' ? undefined : form);
    focusNext.current = id ? `[data-edit-connection="${CSS.escape(id)}"]` : '[data-add-connection]';
    setForm(undefined);
    if (!saved) return;
    const models = useModels.getState();
    await models.refresh({ servers: true });
    models.pickFirstOf(saved.id);
  };
  return (
    <section ref={section} aria-labelledby="models-connections" className="space-y-2">
      <h3 id="models-connections" className="font-semibold">
        {t('connections')}
      </h3>
      {connections.length === 0 && <p className="text-sm">{t('noConnections')}</p>}
      <ul className="space-y-2">
        {connections.map((c) =>
          form === c.id ? (
            <li key={c.id}>
              <ConnectionForm editing={c} onDone={(s) => void done(s)} />
            </li>
          ) : (
            <ConnectionRow key={c.id} c={c} onEdit={() => setForm(c.id)} />
          ),
        )}
      </ul>
      {form === 'add' ? (
        <ConnectionForm onDone={(s) => void done(s)} />
      ) : (
        <button type="button" className={BUTTON} onClick={() => setForm('add')} data-add-connection>
          {t('add')}
        </button>
      )}
    </section>
  );
}
