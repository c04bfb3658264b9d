import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { ArrowUpIcon, CameraIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { newClientId } from '../game/queries.ts';
import { sendTyping, uploadMessagePhoto } from './queries.ts';
import { messagingStore, type Pending } from './store.ts';

/** At most one typing signal this often while typing (the other side holds it for 3 s). */
export const TYPING_THROTTLE_MS = 2000;

export function Composer({ id }: { id: string }) {
  const { user } = useAuth();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const lastTyping = useRef(0);
  const file = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const navigate = useNavigate();

  useEffect(() => {
    // A queued send the server later refuses (a limit reached): say why, with the way up.
    messagingStore.onRefused = (e) => {
      if (e.code === 'limit_reached')
        toast.show({
          type: 'upgrade',
          key: 'message-limit',
          title: 'Daily message limit reached',
          message: e.message,
          action: { label: 'See Premium', onClick: () => navigate('/settings/premium') },
        });
      else toast.error("Your message wasn't sent", e.message);
    };
    return () => {
      messagingStore.onRefused = null;
    };
  }, [toast, navigate]);

  const send = (body: { type: 'text' | 'photo'; content: string; photoId?: string; photo?: Pending['photo'] }) => {
    lastTyping.current = 0;
    void messagingStore.enqueue({
      clientId: newClientId(),
      conversationId: id,
      senderId: user?.uid ?? '',
      ...body,
    });
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const content = text.trim();
    if (!content) return;
    setText('');
    send({ type: 'text', content });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const onChange = (value: string) => {
    setText(value);
    const now = Date.now();
    if (value.trim() && now - lastTyping.current >= TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      sendTyping(id, true).catch(() => undefined);
    }
  };

  const onPhoto = async (f: File | undefined) => {
    if (!f) return;
    setUploading(true);
    try {
      const photo = await uploadMessagePhoto(f);
      send({ type: 'photo', content: '', photoId: photo.id, photo });
    } catch (e) {
      toast.error("Your photo wasn't sent", errorMessage(e, 'Check your connection and try again.'));
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  return (
    <form
      onSubmit={submit}
      className="flex items-end gap-2 border-t border-line bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]"
    >
      <input
        ref={file}
        type="file"
        accept="image/*"
        hidden
        aria-label="Photo to send"
        onChange={(e) => void onPhoto(e.target.files?.[0])}
      />
      <button
        type="button"
        aria-label="Attach a photo"
        disabled={uploading}
        onClick={() => file.current?.click()}
        className="flex size-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-canvas disabled:opacity-50"
      >
        {uploading ? <Spinner size={20} label="Uploading photo" /> : <CameraIcon />}
      </button>
      <textarea
        value={text}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        rows={1}
        maxLength={2000}
        placeholder="Message"
        aria-label="Message"
        className="max-h-32 min-h-11 flex-1 resize-none rounded-3xl border border-line bg-canvas px-4 py-2.5 text-base text-ink outline-none focus:border-primary-strong"
      />
      <button
        type="submit"
        aria-label="Send"
        disabled={!text.trim()}
        className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-strong text-white disabled:bg-line disabled:text-muted"
      >
        <ArrowUpIcon />
      </button>
    </form>
  );
}
