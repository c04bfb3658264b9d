import { AUTH_STORAGE_KEYS } from '@fmk/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, apiBlob } from '../api/client.ts';
import { env } from '../env.ts';

// Private files (archives, exports, screenshots, contact photos) are served only with a token:
// no public URL reaches them, so the web fetches their bytes and hands them to the browser
// through object URLs, never through a link another tab or a cache could reuse.

/** How long a saved file's object URL is kept: long enough for the browser to start saving it. */
const SAVE_URL_MS = 10_000;

/** Hands bytes to the browser to save under `name`, through a blob link clicked once. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), SAVE_URL_MS);
}

/**
 * Fetches a private file with the member's token (never cached) and saves it, under the name the
 * server gives or `fallbackName`. A refusal throws an ApiError with `failure`, or with the
 * server's own message when `serverMessage` is set and it sent one.
 */
export async function downloadPrivateFile(
  path: string,
  o: { fallbackName: string; failure: string; serverMessage?: boolean },
): Promise<void> {
  const token = localStorage.getItem(AUTH_STORAGE_KEYS.token);
  const res = await fetch(`${env.apiBase}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!res.ok) {
    const body = o.serverMessage ? ((await res.json().catch(() => null)) as { message?: unknown } | null) : null;
    throw new ApiError(res.status, typeof body?.message === 'string' ? body.message : o.failure);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? o.fallbackName;
  saveBlob(blob, name);
}

/**
 * What an <img> shows for a private picture at `path` (null: none): its bytes fetched with the
 * token and shown from an object URL, revoked when the picture changes or the screen goes. The
 * bytes never change under one path, so they are fetched once.
 */
export function usePrivateImage(queryKey: readonly unknown[], path: string | null): { src: string | null; failed: boolean } {
  const bytes = useQuery({
    queryKey,
    queryFn: ({ signal }) => apiBlob(path!, signal),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!bytes.data || typeof URL.createObjectURL !== 'function') {
      setSrc(null);
      return;
    }
    const url = URL.createObjectURL(bytes.data);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [bytes.data]);
  return { src, failed: bytes.isError };
}
