import type { Prompt } from '@fmk/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '../../ui/Button.tsx';
import { SearchIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { PromptPicker } from '../prompts/PromptPicker.tsx';
import { MAX_PROMPTS, replacePrompt, togglePrompt } from './editState.ts';
import { useProfileDraft } from './ProfileEditLayout.tsx';

/** /profile/edit/prompts — choose up to three prompts, or (?replace=id) swap one for another. */
export function PromptSelectorScreen() {
  const { draft, setDraft } = useProfileDraft();
  const [query, setQuery] = useState('');
  const [params] = useSearchParams();
  const replacing = params.get('replace');
  const navigate = useNavigate();
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
        <PromptPicker
          chosen={chosen}
          // Replacing, any prompt not already chosen will do; adding, up to the limit.
          isDisabled={(on) => (replacing ? on : !on && full)}
          onPick={pick}
          query={query}
        />
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
