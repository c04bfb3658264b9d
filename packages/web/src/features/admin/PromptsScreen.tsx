import type { Prompt } from '@fmk/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { QueryState, ScreenTitle, TableWrap, tableClass, tdClass, thClass } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/** The create and edit form: text, category and whether members may pick it. */
function PromptForm({
  initial,
  submit,
  label,
  onDone,
}: {
  initial: { text: string; category: string; isActive: boolean };
  submit: (v: { text: string; category: string; isActive: boolean }) => Promise<unknown>;
  label: string;
  onDone?: () => void;
}) {
  const [v, setV] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      aria-label={label}
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        setBusy(true);
        try {
          await submit({ ...v, text: v.text.trim(), category: v.category.trim() || 'general' });
          setV(initial);
          onDone?.();
        } catch (err) {
          setError(errorMessage(err, 'The prompt was not saved.'));
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="flex-1">
        <TextField label="Prompt text" value={v.text} maxLength={200} onChange={(e) => setV({ ...v, text: e.target.value })} />
      </div>
      <TextField label="Category" value={v.category} maxLength={40} onChange={(e) => setV({ ...v, category: e.target.value })} />
      <label className="flex min-h-12 items-center gap-2 text-sm font-semibold text-ink">
        <input type="checkbox" checked={v.isActive} onChange={(e) => setV({ ...v, isActive: e.target.checked })} />
        Active
      </label>
      <Button type="submit" loading={busy} className="min-h-12 px-4 text-sm">
        {label}
      </Button>
      <FormError>{error}</FormError>
    </form>
  );
}

function PromptRow({ p, me }: { p: Prompt; me: ReturnType<typeof useAdminMe>['data'] }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const edit = useStaffMutation((v: { text: string; category: string; isActive: boolean }) =>
    staffCall('PATCH /admin/prompts/:id', { params: { id: p.id }, body: v }),
  );
  const remove = useStaffMutation(() => staffCall('DELETE /admin/prompts/:id', { params: { id: p.id } }));
  return (
    <tr data-testid="prompt">
      <td className={tdClass}>
        {editing ? (
          <PromptForm
            label="Save"
            initial={{ text: p.text, category: p.category, isActive: p.isActive }}
            submit={(v) => edit.mutateAsync(v)}
            onDone={() => setEditing(false)}
          />
        ) : (
          p.text
        )}
        <FormError>{error}</FormError>
      </td>
      <td className={tdClass}>{p.category}</td>
      <td className={tdClass}>{p.isActive ? 'Active' : 'Inactive'}</td>
      <td className={tdClass}>{p.usageCount}</td>
      <td className={tdClass}>{p.likeCount}</td>
      <td className={tdClass}>
        <span className="flex flex-wrap gap-2">
          {mayUse(me, 'prompts.edit') ? (
            <Button variant="secondary" className="min-h-10 px-3 text-sm" onClick={() => setEditing((x) => !x)}>
              {editing ? 'Cancel' : 'Edit'}
            </Button>
          ) : null}
          {mayUse(me, 'prompts.delete') ? (
            <Button
              variant="danger"
              className="min-h-10 px-3 text-sm"
              loading={remove.isPending}
              onClick={() => {
                if (!window.confirm(`Delete “${p.text}” and its answers' likes?`)) return;
                setError(null);
                remove.mutate(undefined, { onError: (err) => setError(errorMessage(err, 'The prompt was not deleted.')) });
              }}
            >
              Delete
            </Button>
          ) : null}
        </span>
      </td>
    </tr>
  );
}

/**
 * Profile prompts (admin/prompts): the analytics (answers and likes in all, by category, the top
 * ones), every prompt with its own counts, searched and filtered; create, edit, delete, and
 * create the starter prompts that are missing.
 */
export function PromptsScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.prompts(), () => staffCall('GET /admin/prompts'));
  const stats = useStaffQuery(adminKeys.promptAnalytics(), () => staffCall('GET /admin/prompts/analytics'));
  const create = useStaffMutation((v: { text: string; category: string; isActive: boolean }) =>
    staffCall('POST /admin/prompts', { body: v }),
  );
  const seed = useStaffMutation(() => staffCall('POST /admin/prompts/seed'));
  const [seeded, setSeeded] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('all');
  const [active, setActive] = useState<'all' | 'active' | 'inactive'>('all');
  const needle = search.trim().toLowerCase();
  return (
    <>
      <ScreenTitle
        actions={
          mayUse(me, 'prompts.create') ? (
            <Button
              variant="secondary"
              className="min-h-10 px-4 text-sm"
              loading={seed.isPending}
              onClick={() =>
                seed.mutate(undefined, {
                  onSuccess: (r) => setSeeded(`${r.created} starter prompt(s) created.`),
                  onError: (err) => setSeeded(errorMessage(err, 'Seeding failed.')),
                })
              }
            >
              Add missing starter prompts
            </Button>
          ) : null
        }
      >
        Prompts
      </ScreenTitle>
      {seeded ? (
        <p role="status" className="mb-3 text-sm text-ink">
          {seeded}
        </p>
      ) : null}
      <QueryState q={stats} what="prompt analytics">
        {(s) => (
          <section aria-label="Prompt analytics" className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ['Prompts', s.totalPrompts],
              ['Active', s.activePrompts],
              ['Answers', s.totalUsage],
              ['Likes', s.totalLikes],
            ].map(([label, n]) => (
              <div key={label} className="rounded-xl border border-line p-3">
                <p className="text-sm text-muted">{label}</p>
                <p className="text-2xl font-bold text-ink">{n}</p>
              </div>
            ))}
          </section>
        )}
      </QueryState>
      {mayUse(me, 'prompts.create') ? (
        <section aria-label="New prompt" className="mb-4 rounded-xl border border-line p-3">
          <PromptForm
            label="Create prompt"
            initial={{ text: '', category: 'general', isActive: true }}
            submit={(v) => create.mutateAsync(v)}
          />
        </section>
      ) : null}
      <QueryState
        q={q}
        what="prompts"
        isEmpty={(d) => d.length === 0}
        empty={{ title: 'No prompts yet', body: 'Create one, or add the starter prompts.' }}
      >
        {(rows) => {
          const categories = [...new Set(rows.map((p) => p.category))].sort();
          const shown = rows.filter(
            (p) =>
              (category === 'all' || p.category === category) &&
              (active === 'all' || p.isActive === (active === 'active')) &&
              (!needle || p.text.toLowerCase().includes(needle)),
          );
          return (
            <>
              <div className="mb-3 grid gap-3 sm:grid-cols-3">
                <TextField label="Search prompts" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
                <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value)}>
                  <option value="all">Every category</option>
                  {categories.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </SelectField>
                <SelectField label="Shown to members" value={active} onChange={(e) => setActive(e.target.value as typeof active)}>
                  <option value="all">Active and inactive</option>
                  <option value="active">Active</option>
                  <option value="inactive">Inactive</option>
                </SelectField>
              </div>
              {shown.length === 0 ? (
                <p className="py-6 text-center text-muted">No prompt matches these filters.</p>
              ) : (
                <TableWrap label="Prompts">
                  <table className={tableClass}>
                    <thead>
                      <tr>
                        <th className={thClass}>Prompt</th>
                        <th className={thClass}>Category</th>
                        <th className={thClass}>Status</th>
                        <th className={thClass}>Answers</th>
                        <th className={thClass}>Likes</th>
                        <th className={thClass}>
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((p) => (
                        <PromptRow key={p.id} p={p} me={me} />
                      ))}
                    </tbody>
                  </table>
                </TableWrap>
              )}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
