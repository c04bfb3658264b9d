import type { Contact } from '@fmk/core';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CameraIcon, EditIcon } from '../../ui/icons.tsx';
import { PHOTO_ACCEPT } from '../../ui/PhotoTiles.tsx';
import { Pill } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { ContactAvatar } from './parts.tsx';
import { useLinkablePeople } from './people.ts';
import {
  useCreateContactMutation,
  useDeleteContactMutation,
  useUpdateContactMutation,
  useUploadContactPhotoMutation,
} from './queries.ts';

/** Add, change or remove a contact's photo. The server re-encodes it and serves it to the owner only. */
function ContactPhotoControls({ contact }: { contact: Contact }) {
  const upload = useUploadContactPhotoMutation();
  const update = useUpdateContactMutation();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setError(null);
    upload.mutate(
      { id: contact.id, file },
      {
        onSuccess: () => toast.success('Photo saved'),
        onError: (err) => setError(errorMessage(err, 'We could not upload this photo. Please try again.')),
      },
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <label
          className={`${buttonClass('secondary')} min-h-10 cursor-pointer px-4 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-strong ${upload.isPending ? 'pointer-events-none opacity-50' : ''}`}
        >
          {upload.isPending ? <Spinner size={18} label="Uploading photo" /> : <CameraIcon width={18} height={18} />}
          {upload.isPending ? 'Uploading…' : contact.photoURL ? 'Change photo' : 'Add photo'}
          <input type="file" accept={PHOTO_ACCEPT} className="sr-only" onChange={onFile} disabled={upload.isPending} />
        </label>
        {contact.photoURL ? (
          <Button
            variant="ghost"
            className="min-h-10 px-4"
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { id: contact.id, patch: { photoURL: null } },
                {
                  onSuccess: () => toast.success('Photo removed'),
                  onError: (err) => setError(errorMessage(err, 'We could not remove this photo. Please try again.')),
                },
              )
            }
          >
            Remove photo
          </Button>
        ) : null}
      </div>
      <FormError>{error}</FormError>
    </div>
  );
}

export function ContactSheet({ open, contact, onClose }: { open: boolean; contact: Contact | null; onClose: () => void }) {
  const create = useCreateContactMutation();
  const update = useUpdateContactMutation();
  const del = useDeleteContactMutation();
  const people = useLinkablePeople();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [editing, setEditing] = useState(false);
  const contactId = contact?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another contact opens, not when this one's data refreshes
  useEffect(() => {
    if (!open) return;
    setEditing(false);
    setError(null);
    setTags(contact?.tags ?? []);
  }, [open, contactId]);

  const linkedName = contact?.userId ? (people.byId.get(contact.userId)?.displayName ?? 'FMK user') : null;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim() || null;
    const age = text('age');
    const ageValue = age ? Number(age) : null;
    if (ageValue !== null && (!Number.isInteger(ageValue) || ageValue < 18)) {
      setError(Number.isInteger(ageValue) ? 'Contacts must be 18 or older.' : 'Age must be a whole number.');
      return;
    }
    const body = {
      name: text('name') ?? '',
      nickname: text('nickname'),
      age: ageValue,
      userId: text('userId'),
      phoneNumber: text('phone'),
      notes: text('notes'),
      tags,
    };
    try {
      if (contact) await update.mutateAsync({ id: contact.id, patch: body });
      else await create.mutateAsync(body);
      toast.success(contact ? 'Contact updated' : 'Contact added');
      if (contact) setEditing(false);
      else onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not save this contact. Please try again.'));
    }
  };

  return (
    <Sheet open={open} onClose={onClose} title={contact ? (editing ? 'Edit contact' : contact.name) : 'Add contact'}>
      {contact && !editing ? (
        <div className="flex flex-col gap-4 pb-2">
          <div className="flex items-center gap-3">
            <ContactAvatar contact={contact} size={64} />
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="text-lg font-semibold text-ink">{contact.name}</span>
              <span className="text-sm text-muted">
                {[contact.nickname, contact.age ? `${contact.age}` : null, contact.phoneNumber].filter(Boolean).join(' · ') ||
                  'No details'}
              </span>
            </div>
            <Button variant="ghost" className="min-h-10 px-3" onClick={() => setEditing(true)}>
              <EditIcon width={18} height={18} /> Edit
            </Button>
          </div>
          <ContactPhotoControls contact={contact} />
          {contact.userId ? (
            <Link
              to={`/profile/${encodeURIComponent(contact.userId)}`}
              className="flex items-center gap-2 rounded-2xl bg-primary-soft px-3 py-2 text-sm text-ink hover:underline focus-visible:outline-3 focus-visible:outline-primary-strong"
            >
              <Pill tone="neutral">On FMK</Pill>
              <span className="font-semibold">{linkedName}</span>
            </Link>
          ) : null}
          <dl className="grid grid-cols-3 gap-2 text-center">
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Times</dt>
              <dd className="text-xl font-bold text-ink">{contact.totalActivities}</dd>
            </div>
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Avg rating</dt>
              <dd className="text-xl font-bold text-ink">{contact.avgRating?.toFixed(1) ?? '–'}</dd>
            </div>
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Last time</dt>
              <dd className="text-sm font-bold text-ink">{contact.lastActivity ?? '–'}</dd>
            </div>
          </dl>
          {contact.tags.length ? <p className="text-sm text-muted">{contact.tags.join(' · ')}</p> : null}
          {contact.notes ? (
            <p className="rounded-2xl bg-canvas p-3 text-sm whitespace-pre-wrap text-ink">{contact.notes}</p>
          ) : null}
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() =>
              del.mutate(contact.id, {
                onSuccess: () => {
                  toast.success('Contact deleted');
                  onClose();
                },
                onError: (e) => toast.error(errorMessage(e, 'We could not delete this contact. Please try again.')),
              })
            }
          >
            Delete contact
          </Button>
        </div>
      ) : (
        <form key={contact?.id ?? 'new'} onSubmit={submit} className="flex flex-col gap-4 pb-2" noValidate>
          <TextField label="Name" name="name" required maxLength={60} autoComplete="off" defaultValue={contact?.name ?? ''} />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label="Nickname"
              name="nickname"
              maxLength={60}
              autoComplete="off"
              defaultValue={contact?.nickname ?? ''}
            />
            <TextField
              label="Age"
              name="age"
              type="number"
              inputMode="numeric"
              min={18}
              max={120}
              defaultValue={contact?.age ?? ''}
            />
          </div>
          <TextField
            label="Phone"
            name="phone"
            type="tel"
            maxLength={30}
            autoComplete="off"
            defaultValue={contact?.phoneNumber ?? ''}
          />
          <SelectField
            label="FMK profile (optional)"
            name="userId"
            defaultValue={contact?.userId ?? ''}
            hint={
              people.isError
                ? 'We could not load your matches. You can link one later.'
                : people.isPending
                  ? 'Loading your matches and chats…'
                  : people.people.length === 0 && !contact?.userId
                    ? 'Link someone you have matched or chatted with.'
                    : undefined
            }
          >
            <option value="">Not linked</option>
            {contact?.userId && !people.byId.has(contact.userId) ? <option value={contact.userId}>{linkedName}</option> : null}
            {people.people.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
          <ChipInput
            label="Tags"
            values={tags}
            onChange={setTags}
            maxLength={30}
            suggestions={['Regular', 'Top', 'Bottom', 'Vers', 'Friend']}
          />
          <TextArea label="Notes" name="notes" maxLength={2000} defaultValue={contact?.notes ?? ''} />
          <FormError>{error}</FormError>
          <Button type="submit" block loading={create.isPending || update.isPending}>
            Save contact
          </Button>
          {contact ? (
            <Button variant="ghost" block onClick={() => setEditing(false)}>
              Cancel
            </Button>
          ) : null}
        </form>
      )}
    </Sheet>
  );
}
