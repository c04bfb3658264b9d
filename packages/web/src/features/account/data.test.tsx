import { type DataExport, DataRightsMessages } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const type = (sheet: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(sheet).getByLabelText(label), { target: { value } });

const archive = (over: Partial<DataExport>): DataExport => ({
  id: 'exp-1',
  status: 'building',
  progress: 0,
  createdAt: '2026-06-01T12:00:00.000Z',
  readyAt: null,
  expiresAt: null,
  bytes: null,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("settings' 'Download my data'", () => {
  it('starts the archive, shows its progress, then saves the zip until it expires', async () => {
    const user = me();
    signInStored(user);
    let state: DataExport | null = null;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/account/export': () => {
        // Each poll moves the build on, as the server's progress does.
        if (state?.status === 'building') {
          state =
            state.progress < 40
              ? { ...state, progress: 40 }
              : archive({
                  status: 'ready',
                  progress: 100,
                  readyAt: state.createdAt,
                  expiresAt: '2026-06-02T12:00:00.000Z',
                  bytes: 250_000,
                });
        }
        return json(200, { export: state });
      },
      'POST /api/v1/account/export': () => {
        state = archive({ progress: 0 });
        return json(202, state);
      },
      'GET /api/v1/account/export/exp-1/download': () =>
        new Response(new Blob(['PK']), {
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="fmk-data-2026-06-01.zip"' },
        }),
    });
    const created = vi.fn(() => 'blob:zip');
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = created;
    URL.revokeObjectURL = vi.fn();
    // The browser saves the file on the link's click; here the click is only recorded.
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {});
    onTestFinished(() => {
      saved.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    });
    start('/settings');
    const prepare = (await screen.findByRole('button', { name: 'Prepare my data' })) as HTMLButtonElement;
    // Enabled once the first look for an earlier copy has answered.
    await vi.waitFor(() => expect(prepare.disabled).toBe(false));
    fireEvent.click(prepare);
    const bar = await screen.findByRole('progressbar', { name: 'Preparing your data' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await screen.findByText(/Preparing your data\.\.\. 40%/, {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText(/Your data is ready \(244 KB\)/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/then it is deleted/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    await vi.waitFor(() => expect(saved).toHaveBeenCalled());
    expect(created).toHaveBeenCalled();
    expect(saved.mock.contexts[0]).toMatchObject({ download: 'fmk-data-2026-06-01.zip', href: 'blob:zip' });
    // The zip is fetched with the session's token, never put in a URL.
    expect(calls.some((c) => c.key === 'GET /api/v1/account/export/exp-1/download')).toBe(true);
    expect(screen.getByRole('button', { name: 'Prepare a new copy' })).toBeTruthy();
  }, 15_000);

  it("shows the server's refusal and an expired copy", async () => {
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/account/export': () => json(200, { export: archive({ status: 'expired', progress: 100 }) }),
      'POST /api/v1/account/export': () => json(429, { error: 'rate_limited', message: DataRightsMessages.exportLimit }),
    });
    start('/settings');
    expect(await screen.findByText('Your last copy has expired and was deleted.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Prepare my data' }));
    expect((await screen.findByText(DataRightsMessages.exportLimit)).textContent).toBe(DataRightsMessages.exportLimit);
  }, 15_000);
});

describe("settings' 'Download my data' cannot look", () => {
  it('says so and checks again', async () => {
    const user = me();
    signInStored(user);
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/account/export': () =>
        fail ? json(503, { error: 'unavailable', message: 'Server busy' }) : json(200, { export: null }),
    });
    start('/settings');
    expect(await screen.findByText('Server busy', {}, { timeout: 12_000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    const prepare = (await screen.findByRole('button', { name: 'Prepare my data' })) as HTMLButtonElement;
    await vi.waitFor(() => expect(prepare.disabled).toBe(false));
  }, 20_000);
});

describe("settings' 'Delete account'", () => {
  it('says what is erased, needs the password, then signs out to the landing page with a notice', async () => {
    const user = me();
    signInStored(user);
    let wrong = true;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/account/export': () => json(200, { export: null }),
      'POST /api/v1/account/delete': () =>
        wrong
          ? json(400, {
              error: 'wrong_password',
              message: "That's not your current password.",
              fields: { currentPassword: "That's not your current password." },
            })
          : json(200, { message: DataRightsMessages.accountDeleted }),
      'POST /api/v1/auth/logout': () => json(401, { error: 'unauthenticated', message: 'User not authenticated' }),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const sheet = screen.getByRole('dialog', { name: 'Delete account' });
    expect(within(sheet).getByText(/the men you wrote to lose them too/)).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Delete my account' }));
    expect(within(sheet).getByText('Enter your password to delete your account.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/v1/account/delete')).toBe(false);

    type(sheet, 'Account password', 'not my password');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Delete my account' }));
    expect(await within(sheet).findByText("That's not your current password.")).toBeTruthy();

    wrong = false;
    type(sheet, 'Account password', 'correct horse battery');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account and your data were deleted. Take care.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/');
    expect(calls.filter((c) => c.key === 'POST /api/v1/account/delete').at(-1)?.body).toEqual({
      password: 'correct horse battery',
    });
    expect(localStorage.getItem('authToken')).toBeNull();
  }, 15_000);

  it('an account without a password is asked to type DELETE', async () => {
    const user = me();
    signInStored(user);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/account/export': () => json(200, { export: null }),
      'POST /api/v1/account/delete': (init) =>
        JSON.parse(String(init?.body)).confirm === 'DELETE'
          ? json(200, { message: DataRightsMessages.accountDeleted })
          : json(400, {
              error: 'bad_request',
              message: DataRightsMessages.confirmRequired,
              fields: { confirm: DataRightsMessages.confirmRequired },
            }),
      'POST /api/v1/auth/logout': () => json(401, { error: 'unauthenticated', message: 'User not authenticated' }),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const sheet = screen.getByRole('dialog', { name: 'Delete account' });
    type(sheet, 'Account password', 'anything');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Delete my account' }));
    // The server says this account has no password: the sheet asks for the word instead.
    expect(await within(sheet).findByText(DataRightsMessages.confirmRequired)).toBeTruthy();
    type(sheet, 'Type DELETE to confirm', 'DELETE');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account and your data were deleted. Take care.')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/v1/account/delete').at(-1)?.body).toEqual({ confirm: 'DELETE' });
  }, 15_000);
});
