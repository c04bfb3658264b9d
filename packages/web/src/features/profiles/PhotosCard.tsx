import { effectiveTier, type Me, photoAllowance, TIER_LIMITS } from '@fmk/core';
import { type ChangeEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ArrowDownIcon, ArrowUpIcon, StarIcon } from '../../ui/icons.tsx';
import { AddPhotoTile, PhotoTile, uploadChosenFiles } from '../../ui/PhotoTiles.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { Card } from './EditCard.tsx';
import { useDeletePhotoMutation, useReorderPhotosMutation, useUploadPhotoMutation } from './queries.ts';

/** Photos are saved as they change (upload, remove, reorder), not with the form. */
export function PhotosCard({ user }: { user: Me }) {
  const { updateUser } = useAuth();
  const upload = useUploadPhotoMutation();
  const remove = useDeletePhotoMutation();
  const reorder = useReorderPhotosMutation();
  const [error, setError] = useState<string | null>(null);
  const [upgrade, setUpgrade] = useState<string | null>(null);
  const limit = TIER_LIMITS[effectiveTier(user)].photos;
  const photos = user.photos;
  const busy = upload.isPending || remove.isPending || reorder.isPending;
  // A safety alert's 'Review photo' opens the editor on that photo (?photo=<id>): scrolled to, ringed, focused.
  const [params] = useSearchParams();
  const reviewing = params.get('photo');
  useEffect(() => {
    if (!reviewing) return;
    const tile = document.getElementById(`photo-${reviewing}`);
    tile?.scrollIntoView({ block: 'center' });
    tile?.focus({ preventScroll: true });
  }, [reviewing]);

  const refresh = async () => updateUser(await call('GET /me'));

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    setError(null);
    await uploadChosenFiles(
      e,
      (file) => upload.mutateAsync(file),
      () => undefined,
      (err) => {
        if (err instanceof ApiError && err.code === 'limit_reached') setUpgrade(err.message);
        else setError(errorMessage(err, 'That photo could not be uploaded. Please try again.'));
      },
    );
    await refresh().catch(() => setError('Your photos could not be refreshed. Reload to see them.'));
  };

  const move = (i: number, by: -1 | 1) => {
    const ids = photos.map((p) => p.id);
    const j = i + by;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    reorder.mutate(ids, { onError: (err) => setError(errorMessage(err, 'Your photos could not be reordered.')) });
  };

  const allowance = photoAllowance(user, photos.length);

  return (
    <Card title="Photos" lead="Your first photo is the one people see first.">
      <p className="text-sm font-semibold text-ink" aria-live="polite">
        {photos.length} of {limit} photos
      </p>
      <ul className="grid grid-cols-3 gap-2" aria-label="Your photos">
        {photos.map((p, i) => (
          <PhotoTile
            key={p.id}
            id={`photo-${p.id}`}
            url={p.url}
            index={i}
            total={photos.length}
            className={`aspect-[4/5] rounded-2xl ${p.id === reviewing ? 'ring-4 ring-primary ring-offset-2' : ''}`}
            disabled={busy}
            onRemove={() =>
              remove.mutate(p.id, {
                onSuccess: () => updateUser({ ...user, photos: photos.filter((x) => x.id !== p.id) }),
                onError: (err) => setError(errorMessage(err, 'That photo could not be removed. Please try again.')),
              })
            }
          >
            {i === 0 ? (
              <span className="absolute bottom-1.5 left-1.5 rounded-full bg-white/95 px-2 py-0.5 text-xs font-bold text-ink">
                Main
              </span>
            ) : null}
            {p.inReview ? (
              // Held by photo moderation: only he sees it until staff approve it.
              <span
                className="absolute top-1.5 left-1.5 rounded-full bg-ink/85 px-2 py-0.5 text-xs font-bold text-white"
                title="Only you can see this photo until our team has reviewed it"
              >
                In review
              </span>
            ) : null}
            {photos.length > 1 ? (
              <div className="absolute right-1.5 bottom-1.5 flex gap-1">
                {i > 0 ? (
                  <button
                    type="button"
                    aria-label={`Move photo ${i + 1} earlier`}
                    disabled={busy}
                    onClick={() => move(i, -1)}
                    className="rounded-full bg-white/95 p-1.5 text-ink shadow"
                  >
                    <ArrowUpIcon width={14} height={14} className="-rotate-90" />
                  </button>
                ) : null}
                {i < photos.length - 1 ? (
                  <button
                    type="button"
                    aria-label={`Move photo ${i + 1} later`}
                    disabled={busy}
                    onClick={() => move(i, 1)}
                    className="rounded-full bg-white/95 p-1.5 text-ink shadow"
                  >
                    <ArrowDownIcon width={14} height={14} className="-rotate-90" />
                  </button>
                ) : null}
              </div>
            ) : null}
          </PhotoTile>
        ))}
        <li className="aspect-[4/5]">
          {allowance.allowed ? (
            <AddPhotoTile rounded="rounded-2xl" uploading={upload.isPending} disabled={busy} onChange={(e) => void onFiles(e)} />
          ) : (
            <button
              type="button"
              onClick={() => setUpgrade(allowance.message)}
              className="flex size-full flex-col items-center justify-center gap-1 rounded-2xl border-2 border-dashed border-line px-2 text-center text-sm font-semibold text-primary-strong hover:bg-primary-soft"
            >
              <StarIcon />
              <span>Add more photos</span>
            </button>
          )}
        </li>
      </ul>
      <FormError>{error}</FormError>
      <Sheet open={upgrade !== null} onClose={() => setUpgrade(null)} title="Photo limit reached">
        <div className="flex flex-col gap-4 pb-2">
          <div className="flex items-center gap-3">
            <div className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
              <StarIcon />
            </div>
            <p className="text-base text-ink">{upgrade}</p>
          </div>
          <ButtonLink to="/settings/premium" block>
            See plans
          </ButtonLink>
          <Button variant="secondary" block onClick={() => setUpgrade(null)}>
            Not now
          </Button>
        </div>
      </Sheet>
    </Card>
  );
}
