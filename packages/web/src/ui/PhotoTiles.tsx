import { type ChangeEvent, type ReactNode, useId } from 'react';
import { CameraIcon, CloseIcon } from './icons.tsx';
import { Spinner } from './Spinner.tsx';

/** What the file picker offers; the server sniffs the bytes and is the authority. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/heic,image/avif';

/**
 * Uploads the chosen files one by one, stopping at the first failure (a tier limit or a bad
 * file), and clears the input so the same file can be chosen again.
 */
export async function uploadChosenFiles<T>(
  e: ChangeEvent<HTMLInputElement>,
  upload: (file: File) => Promise<T>,
  onUploaded: (result: T) => void,
  onError: (err: unknown) => void,
): Promise<void> {
  const files = Array.from(e.target.files ?? []);
  e.target.value = '';
  for (const file of files) {
    try {
      onUploaded(await upload(file));
    } catch (err) {
      onError(err);
      return;
    }
  }
}

/** The dashed "Add photo" tile with its hidden file input. */
export function AddPhotoTile({
  uploading,
  disabled,
  onChange,
  rounded = 'rounded-xl',
}: {
  uploading: boolean;
  disabled: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  rounded?: string;
}) {
  const inputId = useId();
  return (
    <>
      <label
        htmlFor={inputId}
        className={`flex size-full cursor-pointer flex-col items-center justify-center gap-1 ${rounded} border-2 border-dashed border-line text-sm font-semibold text-primary-strong hover:bg-primary-soft has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong`}
      >
        {uploading ? <Spinner size={24} label="Uploading photo" /> : <CameraIcon />}
        <span>{uploading ? 'Uploading…' : 'Add photo'}</span>
      </label>
      <input
        id={inputId}
        type="file"
        accept={PHOTO_ACCEPT}
        multiple
        className="sr-only"
        onChange={onChange}
        disabled={disabled}
      />
    </>
  );
}

/** One of the user's photos with its remove button; `children` adds overlays (badges, move buttons). */
export function PhotoTile({
  url,
  index,
  total,
  disabled,
  onRemove,
  className,
  children,
  id,
}: {
  id?: string;
  url: string;
  index: number;
  total: number;
  disabled: boolean;
  onRemove: () => void;
  className: string;
  children?: ReactNode;
}) {
  return (
    <li id={id} tabIndex={id ? -1 : undefined} className={`relative overflow-hidden bg-canvas ${className}`}>
      <img src={url} alt={`You, ${index + 1} of ${total}`} className="size-full object-cover" />
      <button
        type="button"
        aria-label={`Remove photo ${index + 1}`}
        disabled={disabled}
        className="absolute top-1.5 right-1.5 rounded-full bg-white/95 p-1.5 text-ink shadow"
        onClick={onRemove}
      >
        <CloseIcon width={16} height={16} />
      </button>
      {children}
    </li>
  );
}
