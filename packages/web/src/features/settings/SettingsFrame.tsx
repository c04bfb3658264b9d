import type { Settings } from '@fmk/core';
import type { ReactNode } from 'react';
import { waitingForNetwork } from '../../shared/online.ts';
import { Button } from '../../ui/Button.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { PendingNote } from './PendingNote.tsx';
import { useSettingsQuery } from './store.ts';

/** The same white block as the settings hub's sections. */
export function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-2xl border border-line bg-white px-4 pt-2 pb-3">
      <legend className="px-1 text-sm font-semibold text-ink">{title}</legend>
      {children}
    </fieldset>
  );
}

/** One switch of a settings screen: the setting's key, its label, and a line saying what it does. */
export interface SwitchRow<K extends string = string> {
  key: K;
  label: string;
  hint: string;
}

/**
 * The switches of a settings block, one row each (label, hint, switch). `locked` answers the
 * upgrade text for a row the member's tier may not turn on (the row then says '(Premium)' and
 * shows that text instead of its hint), or null.
 */
export function SwitchRows<K extends string>({
  rows,
  values,
  locked = () => null,
  onChange,
}: {
  rows: readonly SwitchRow<K>[];
  values: Partial<Record<K, boolean>>;
  locked?: (key: K) => string | null;
  onChange: (key: K, on: boolean) => void;
}) {
  return rows.map((r) => {
    const upsell = locked(r.key);
    return (
      <Switch
        key={r.key}
        label={upsell ? `${r.label} (Premium)` : r.label}
        hint={upsell ?? r.hint}
        checked={values[r.key] ?? false}
        disabled={upsell !== null}
        onChange={(v) => onChange(r.key, v)}
      />
    );
  });
}

/** Loading, offline and error states around a screen that needs the settings. */
export function WithSettings({
  title,
  back = '/settings',
  children,
}: {
  title: string;
  back?: string;
  children: (s: Settings) => ReactNode;
}) {
  const q = useSettingsQuery();
  let body: ReactNode;
  if (q.data) body = children(q.data);
  else if (waitingForNetwork(q)) body = <OfflineState body="Your settings load when you're back online." />;
  else if (q.isError)
    body = (
      <ErrorState
        title="Couldn't load your settings"
        body="Check your connection and try again."
        actions={<Button onClick={() => void q.refetch()}>Try again</Button>}
      />
    );
  else
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading your settings" />
      </div>
    );
  return (
    <Page title={title} back={back}>
      <div className="flex flex-col gap-4 pb-8">
        <PendingNote />
        {body}
      </div>
    </Page>
  );
}
