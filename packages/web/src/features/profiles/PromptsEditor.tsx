import { Link } from 'react-router';
import { CloseIcon, EditIcon, PlusIcon } from '../../ui/icons.tsx';
import { TextArea } from '../../ui/TextField.tsx';
import type { Errors } from './EditCard.tsx';
import { MAX_PROMPTS } from './editState.ts';
import { useProfileDraft } from './ProfileEditLayout.tsx';

export function PromptsEditor({ errors }: { errors: Errors }) {
  const { draft, setDraft } = useProfileDraft();
  const answer = (promptId: string, text: string) =>
    setDraft((d) => ({ ...d, prompts: d.prompts.map((p) => (p.promptId === promptId ? { ...p, answer: text } : p)) }));
  const remove = (promptId: string) => setDraft((d) => ({ ...d, prompts: d.prompts.filter((p) => p.promptId !== promptId) }));
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between">
        <h3 className="text-sm font-semibold text-ink">Prompts</h3>
        <span className="text-sm text-muted">
          {draft.prompts.length} of {MAX_PROMPTS}
        </span>
      </div>
      {draft.prompts.map((p, i) => (
        <div key={p.promptId} className="flex flex-col gap-2 rounded-2xl border border-line bg-white p-3">
          <TextArea
            label={p.question}
            maxLength={300}
            className="min-h-20"
            value={p.answer}
            onChange={(e) => answer(p.promptId, e.target.value)}
            error={errors[`datingProfile.prompts.${i}.answer`] ?? (i === 0 ? errors['datingProfile.prompts'] : undefined)}
          />
          <div className="flex gap-2">
            <Link
              to={`/profile/edit/prompts?replace=${encodeURIComponent(p.promptId)}`}
              className="inline-flex min-h-10 items-center gap-1 rounded-full px-3 text-sm font-semibold text-primary-strong hover:bg-primary-soft"
              aria-label={`Change prompt "${p.question}"`}
            >
              <EditIcon width={16} height={16} /> Change
            </Link>
            <button
              type="button"
              onClick={() => remove(p.promptId)}
              aria-label={`Remove prompt "${p.question}"`}
              className="inline-flex min-h-10 items-center gap-1 rounded-full px-3 text-sm font-semibold text-muted hover:bg-canvas"
            >
              <CloseIcon width={16} height={16} /> Remove
            </button>
          </div>
        </div>
      ))}
      {draft.prompts.length < MAX_PROMPTS ? (
        <Link
          to="/profile/edit/prompts"
          className="flex min-h-12 items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-line text-base font-semibold text-primary-strong hover:bg-primary-soft"
        >
          <PlusIcon width={20} height={20} /> {draft.prompts.length ? 'Add a prompt' : 'Choose prompts'}
        </Link>
      ) : null}
    </div>
  );
}
