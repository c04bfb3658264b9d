import { effectiveTier } from '@fmk/core';
import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';
import { SearchIcon, ShieldIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { usePlansQuery } from '../billing/queries.ts';
import { TierTable } from '../billing/TierTable.tsx';
import { type FaqTopic, faqWithPrices, SAFETY_TIPS, searchFaq } from './faq.ts';
import { ContactSupport } from './SupportThreads.tsx';

function Topic({ topic }: { topic: FaqTopic }) {
  const id = `faq-${topic.id}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-sm font-bold tracking-wide text-muted uppercase">
        {topic.title}
      </h3>
      <div className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white">
        {topic.entries.map((e) => (
          <details key={e.q} className="group">
            <summary className="flex min-h-12 cursor-pointer list-none items-center gap-3 px-4 py-3 text-base font-semibold text-ink hover:bg-canvas [&::-webkit-details-marker]:hidden">
              <span className="flex-1">{e.q}</span>
              <span aria-hidden="true" className="text-xl text-muted transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <p className="px-4 pb-4 text-base text-ink">{e.a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

/**
 * /settings/help: a searchable FAQ over every feature (static, in this lazy chunk), the tier
 * table, safety tips, and 'Contact support' with the member's conversations with the team.
 */
export function HelpScreen() {
  const { user } = useAuth();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const plans = usePlansQuery();
  const faq = faqWithPrices(plans.data?.plans);
  const topics = searchFaq(deferred, faq);
  const searchId = useId();
  const searching = deferred.trim().length > 0;
  const count = topics.reduce((n, t) => n + t.entries.length, 0);
  return (
    <Page title="Help" back="/settings">
      <div className="px-4 pb-2">
        <label htmlFor={searchId} className="sr-only">
          Search help
        </label>
        <div className="relative">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted" />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search, e.g. cruise or block"
            className="block w-full rounded-full border border-line bg-white py-3 pr-4 pl-11 text-base text-ink placeholder:text-muted focus:border-primary-strong focus:outline-3 focus:outline-primary/30"
          />
        </div>
        <p role="status" className="mt-2 text-sm text-muted">
          {searching ? (count ? `${count} ${count === 1 ? 'answer' : 'answers'} found` : 'No answers found') : ''}
        </p>
      </div>
      <Section title={searching ? 'Answers' : 'Questions and answers'}>
        {topics.length ? (
          topics.map((t) => <Topic key={t.id} topic={t} />)
        ) : (
          <p className="text-base text-ink">
            Nothing matches “{deferred.trim()}”. Try another word, or ask us below: Contact support.
          </p>
        )}
        {!searching ? <p className="text-sm text-muted">{faq.length} topics. Tap a question to open its answer.</p> : null}
      </Section>
      <Section title="Plans compared">
        <TierTable current={user ? effectiveTier(user) : undefined} />
        <Link to="/settings/premium" className="text-base font-semibold text-primary-strong underline">
          Prices and what each plan includes
        </Link>
      </Section>
      <Section title="Staying safe">
        <ul className="flex flex-col gap-2 rounded-2xl border border-line bg-white p-4">
          {SAFETY_TIPS.map((tip) => (
            <li key={tip} className="flex gap-3 text-base text-ink">
              <ShieldIcon className="mt-0.5 size-5 shrink-0 text-primary-strong" />
              {tip}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Contact support" className="pb-10">
        <ContactSupport />
      </Section>
    </Page>
  );
}
