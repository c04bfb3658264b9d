import { AUTH_STORAGE_KEYS } from '@fmk/core';
import { onlineManager } from '@tanstack/react-query';
import { env } from '../env.ts';

/** A failed API call: `message` is the server's text, fit to show to a person. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = 'error',
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A request that never reached the server (offline, DNS, aborted). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON-serialised unless it is FormData. */
  body?: unknown;
  /** Overrides the stored token (admin sign-in checks a token before keeping it). */
  token?: string | null;
  signal?: AbortSignal;
  /** The request outlives the page (fetch keepalive): for what a closing tab must still say. */
  keepalive?: boolean;
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | null = null;

/** The auth provider listens so that a revoked or expired session signs the user out everywhere. */
export function setUnauthorizedListener(listener: UnauthorizedListener | null): void {
  onUnauthorized = listener;
}

function storedToken(): string | null {
  try {
    return localStorage.getItem(AUTH_STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

function isErrorBody(v: unknown): v is { error?: unknown; message?: unknown; fields?: unknown } {
  return typeof v === 'object' && v !== null;
}

/** Typed fetch against /api/v1. Resolves with the parsed JSON (undefined for 204). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal } = options;
  const token = options.token === undefined ? storedToken() : options.token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await fetch(`${env.apiBase}${path}`, {
      method,
      headers,
      body: payload,
      signal: signal ?? null,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch (e) {
    throw new NetworkError(e instanceof Error ? e.message : 'Network request failed');
  }
  reachedServer();

  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const b = isErrorBody(data) ? data : {};
    const message = typeof b.message === 'string' && b.message ? b.message : res.statusText || `Request failed (${res.status})`;
    const code = typeof b.error === 'string' ? b.error : 'error';
    const fields =
      typeof b.fields === 'object' && b.fields !== null
        ? Object.fromEntries(Object.entries(b.fields).filter((kv): kv is [string, string] => typeof kv[1] === 'string'))
        : {};
    // Only the stored member token signs the member out; a token given by the caller (the staff
    // area's own session) is the caller's to handle.
    if (res.status === 401 && token && options.token === undefined && onUnauthorized) onUnauthorized();
    throw new ApiError(res.status, message, code, fields);
  }
  return data as T;
}

/**
 * An answer from the server proves the network is there, whatever navigator.onLine said (it can
 * say offline on a machine with only a local network): waiting queries go (features/offline).
 */
function reachedServer(): void {
  if (!onlineManager.isOnline()) onlineManager.setOnline(true);
}

/** The message to show for any thrown value, with a fallback for the unexpected. */
export function errorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError && e.message) return e.message;
  return fallback;
}

/** An authenticated GET of bytes (a private photo, which no public URL serves): the body as a Blob. */
export async function apiBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const token = storedToken();
  let res: Response;
  try {
    res = await fetch(`${env.apiBase}${path}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: signal ?? null,
    });
  } catch (e) {
    throw new NetworkError(e instanceof Error ? e.message : 'Network request failed');
  }
  if (!res.ok) {
    if (res.status === 401 && token && onUnauthorized) onUnauthorized();
    throw new ApiError(res.status, res.statusText || `Request failed (${res.status})`);
  }
  return res.blob();
}
