import type { Prompt } from '@fmk/core';
import { useMemo } from 'react';
import { errorMessage } from '../../api/client.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CHECK_CONNECTION, LoadError } from '../../ui/ErrorState.tsx';
import { CheckIcon, SearchIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { usePromptsQuery } from './queries.ts';

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

/**
 * The prompts to choose from, by category, each a toggle button pressed when chosen; with the
 * loading, failed and nothing-matches states. Onboarding and the profile editor choose with it.
 */
export function PromptPicker({
  chosen,
  isDisabled,
  onPick,
  query = '',
}: {
  chosen: ReadonlySet<string>;
  isDisabled: (on: boolean) => boolean;
  onPick: (p: Prompt) => void;
  /** Only prompts whose text or category contains it. */
  query?: string;
}) {
  const prompts = usePromptsQuery();
  const groups = useMemo(() => byCategory(prompts.data ?? [], query), [prompts.data, query]);
  if (prompts.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading prompts" />
      </div>
    );
  }
  if (prompts.isError) {
    return (
      <LoadError
        title="Prompts could not be loaded"
        body={errorMessage(prompts.error, CHECK_CONNECTION)}
        onRetry={() => prompts.refetch()}
      />
    );
  }
  if (groups.length === 0) return <EmptyState icon={<SearchIcon />} title="No prompts match" body="Try another word." />;
  return groups.map(([category, list]) => (
    <section key={category} aria-label={category} className="flex flex-col gap-2">
      <h2 className="text-sm font-bold tracking-wide text-muted uppercase">{category}</h2>
      <ul className="flex flex-col gap-2">
        {list.map((p) => {
          const on = chosen.has(p.id);
          return (
            <li key={p.id}>
              <button
                type="button"
                aria-pressed={on}
                disabled={isDisabled(on)}
                onClick={() => onPick(p)}
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
  ));
}
