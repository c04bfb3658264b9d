import type { Prompt } from '@fmk/core';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { CheckIcon, SearchIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { usePromptsQuery } from '../prompts/queries.ts';
import { MAX_PROMPTS, replacePrompt, togglePrompt } from './editState.ts';
import { useProfileDraft } from './ProfileEditLayout.tsx';

/** Groups prompts by category (General when none), categories and prompts in a stable order. */
export function byCategory(prompts: readonly Prompt[], query: string): [string, Prompt[]][] {
  const q = query.trim().toLowerCase();
  const groups = new Map<string, Prompt[]>();
  for (const p of prompts) {
    if (!p.isActive || (q && !p.text.toLowerCase().includes(q) && !p.category.toLowerCase().includes(q))) continue;
    const c = p.category || 'General';
    groups.set(c, [...(groups.get(c) ?? []), p]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** /profile/edit/prompts — choose up to three prompts, or (?replace=id) swap one for another. */
export function PromptSelectorScreen() {
  const { draft, setDraft } = useProfileDraft();
  const prompts = usePromptsQuery();
  const [query, setQuery] = useState('');
  const [params] = useSearchParams();
  const replacing = params.get('replace');
  const navigate = useNavigate();
  const groups = useMemo(() => byCategory(prompts.data ?? [], query), [prompts.data, query]);
  const chosen = new Set(draft.prompts.map((p) => p.promptId));
  const full = draft.prompts.length >= MAX_PROMPTS;

  const pick = (p: Prompt) => {
    if (replacing) {
      setDraft((d) => ({ ...d, prompts: replacePrompt(d.prompts, replacing, p) }));
      navigate('/profile/edit');
      return;
    }
    setDraft((d) => ({ ...d, prompts: togglePrompt(d.prompts, p) }));
  };

  return (
    <Page title={replacing ? 'Change prompt' : 'Choose prompts'} back="/profile/edit">
      <div className="flex flex-col gap-4 px-4 pb-28">
        <p className="text-base text-muted">
          {replacing
            ? 'Pick a prompt to answer instead.'
            : `Pick up to ${MAX_PROMPTS} prompts to answer on your dating profile. ${draft.prompts.length} of ${MAX_PROMPTS} chosen.`}
        </p>
        <div className="relative">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted" aria-hidden="true" />
          <input
            type="search"
            aria-label="Search prompts"
            placeholder="Search prompts"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="block w-full rounded-full border border-line bg-canvas py-3 pr-4 pl-11 text-base text-ink placeholder:text-muted focus:border-primary-strong focus:outline-3 focus:outline-primary/30"
          />
        </div>
        {prompts.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading prompts" />
          </div>
        ) : prompts.isError ? (
          <ErrorState
            title="Prompts could not be loaded"
            body={errorMessage(prompts.error, 'Check your connection and try again.')}
            actions={<Button onClick={() => void prompts.refetch()}>Try again</Button>}
          />
        ) : groups.length === 0 ? (
          <EmptyState icon={<SearchIcon />} title="No prompts match" body="Try another word." />
        ) : (
          groups.map(([category, list]) => (
            <section key={category} aria-label={category} className="flex flex-col gap-2">
              <h2 className="text-sm font-bold tracking-wide text-muted uppercase">{category}</h2>
              <ul className="flex flex-col gap-2">
                {list.map((p) => {
                  const on = chosen.has(p.id);
                  const disabled = replacing ? on : !on && full;
                  return (
                    <li key={p.id}>
                      <button
                        type="button"
                        aria-pressed={on}
                        disabled={disabled}
                        onClick={() => pick(p)}
                        className={`flex min-h-14 w-full items-center justify-between gap-3 rounded-2xl border px-4 py-3 text-left text-base transition-colors ${
                          on
                            ? 'border-primary-strong bg-primary-soft text-ink'
                            : 'border-line bg-white text-ink hover:border-primary-strong disabled:opacity-50 disabled:hover:border-line'
                        }`}
                      >
                        <span>{p.text}</span>
                        {on ? <CheckIcon className="shrink-0 text-primary-strong" /> : null}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        )}
      </div>
      {replacing ? null : (
        <div className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-30 mx-auto w-full max-w-md bg-gradient-to-t from-white via-white to-white/0 px-4 pt-6 pb-3">
          <ButtonLink to="/profile/edit" block>
            Done
          </ButtonLink>
        </div>
      )}
    </Page>
  );
}
