import {
  SUPPORT_MESSAGE_MAX,
  SUPPORT_SUBJECT_MAX,
  SupportMessages,
  type SupportThread,
  type SupportThreadDetail,
} from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ChatIcon, ChevronRightIcon } from '../../ui/icons.tsx';
import { Pill } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextArea, TextField } from '../../ui/TextField.tsx';
import { useCreateThreadMutation, useThreadQuery, useThreadsQuery, useWriteMutation } from './queries.ts';

const timeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
const STATUS_TEXT = { open: 'Waiting for us', answered: 'Answered', closed: 'Closed' } as const;

/** 'Contact support': a subject and the first message; opens the new conversation. */
function NewThreadSheet({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const create = useCreateThreadMutation();
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = () => {
    setSubject('');
    setText('');
    setErrors({});
    create.reset();
    onClose();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!subject.trim()) errs.subject = SupportMessages.subjectMissing;
    if (!text.trim()) errs.text = SupportMessages.messageMissing;
    setErrors(errs);
    if (Object.keys(errs).length) return;
    create.mutate(
      { subject: subject.trim(), text: text.trim() },
      {
        onSuccess: (t) => {
          close();
          onCreated(t.id);
        },
        onError: (err) => {
          if (err instanceof ApiError && (err.fields.subject || err.fields.text)) setErrors({ ...err.fields });
        },
      },
    );
  };
  const fieldsShown = create.error instanceof ApiError && (create.error.fields.subject || create.error.fields.text);
  return (
    <Sheet open={open} onClose={close} title="Contact support">
      <form className="flex flex-col gap-4 pb-2" onSubmit={onSubmit} noValidate>
        <TextField
          label="Subject"
          value={subject}
          maxLength={SUPPORT_SUBJECT_MAX}
          onChange={(e) => setSubject(e.target.value)}
          error={errors.subject ?? null}
        />
        <TextArea
          label="Your message"
          value={text}
          maxLength={SUPPORT_MESSAGE_MAX}
          onChange={(e) => setText(e.target.value)}
          hint="A person from the team answers here, usually within a day."
          error={errors.text ?? null}
        />
        <FormError>
          {create.isError && !fieldsShown ? errorMessage(create.error, 'Could not send. Please try again.') : null}
        </FormError>
        <Button type="submit" block loading={create.isPending}>
          Send to support
        </Button>
      </form>
    </Sheet>
  );
}

function Messages({ thread }: { thread: SupportThreadDetail }) {
  return (
    <ol aria-label="Messages" className="flex flex-col gap-3">
      {thread.messages.map((m) => (
        <li key={m.id} className={`flex flex-col ${m.from === 'member' ? 'items-end' : 'items-start'}`}>
          <span className="mb-0.5 text-xs text-muted">
            {m.from === 'member' ? 'You' : 'FMK support'} · {timeFormat.format(new Date(m.createdAt))}
          </span>
          <p
            className={`max-w-[85%] whitespace-pre-line rounded-2xl px-4 py-2 text-base ${
              m.from === 'member' ? 'bg-primary-strong text-white' : 'border border-line bg-canvas text-ink'
            }`}
          >
            {m.text}
          </p>
        </li>
      ))}
    </ol>
  );
}

/** One conversation with support: its messages and a reply box (none once staff closed it). */
function ThreadSheet({ id, onClose }: { id: string | null; onClose: () => void }) {
  const thread = useThreadQuery(id);
  const write = useWriteMutation(id ?? '');
  const [text, setText] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    write.mutate(text.trim(), { onSuccess: () => setText('') });
  };
  return (
    <Sheet open={id !== null} onClose={onClose} title={thread.data?.subject ?? 'Support'}>
      <div className="flex flex-col gap-4 pb-2">
        {thread.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : thread.isError ? (
          <LoadError title="We couldn't load this conversation" onRetry={() => thread.refetch()} />
        ) : (
          <>
            {thread.data.priority ? <Pill tone="warn">Priority support</Pill> : null}
            <Messages thread={thread.data} />
            {thread.data.status === 'closed' ? (
              <p className="text-sm text-muted">{SupportMessages.threadClosed}</p>
            ) : (
              <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate>
                <TextArea label="Reply" value={text} maxLength={SUPPORT_MESSAGE_MAX} onChange={(e) => setText(e.target.value)} />
                <FormError>{write.isError ? errorMessage(write.error, 'Could not send. Please try again.') : null}</FormError>
                <Button type="submit" block loading={write.isPending} disabled={!text.trim()}>
                  Send
                </Button>
              </form>
            )}
          </>
        )}
      </div>
    </Sheet>
  );
}

function ThreadItem({ t, onOpen }: { t: SupportThread; onOpen: () => void }) {
  const label = `${t.subject}, ${STATUS_TEXT[t.status]}${t.unread ? `, ${t.unread} new` : ''}`;
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-label={label}
        className="flex min-h-14 w-full items-center gap-3 px-4 py-2 text-left hover:bg-canvas"
      >
        <span className="min-w-0 flex-1">
          <span className={`block truncate text-base text-ink ${t.unread ? 'font-bold' : ''}`}>{t.subject}</span>
          <span className="block text-sm text-muted">
            {STATUS_TEXT[t.status]} · {timeFormat.format(new Date(t.lastMessageAt))}
          </span>
        </span>
        {t.priority ? <Pill tone="warn">Priority</Pill> : null}
        {t.unread ? (
          <span className="flex size-6 items-center justify-center rounded-full bg-primary-strong text-xs font-bold text-white">
            {t.unread}
          </span>
        ) : null}
        <ChevronRightIcon className="text-muted" />
      </button>
    </li>
  );
}

/** Help's 'Contact support': start a conversation, and the ones before with their unread answers. */
export function ContactSupport() {
  const threads = useThreadsQuery();
  const [composing, setComposing] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-base text-muted">Can't find your answer? Write to the team; a person answers, usually within a day.</p>
      <Button block onClick={() => setComposing(true)}>
        <ChatIcon />
        Contact support
      </Button>
      {threads.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner />
        </div>
      ) : threads.isError ? (
        <LoadError title="We couldn't load your conversations" onRetry={() => threads.refetch()} variant="secondary" />
      ) : threads.data.length ? (
        <ul
          aria-label="Your conversations with support"
          className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white"
        >
          {threads.data.map((t) => (
            <ThreadItem key={t.id} t={t} onOpen={() => setOpenId(t.id)} />
          ))}
        </ul>
      ) : null}
      <NewThreadSheet open={composing} onClose={() => setComposing(false)} onCreated={setOpenId} />
      <ThreadSheet id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
