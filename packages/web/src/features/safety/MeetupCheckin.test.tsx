import { DEFAULT_SETTINGS, type MeetupCheckin, MeetupMessages, toSettings } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, match, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();
const settings = toSettings(
  {
    ...DEFAULT_SETTINGS,
    safety: {
      ...DEFAULT_SETTINGS.safety,
      meetupSafety: { ...DEFAULT_SETTINGS.safety.meetupSafety, emergencyContactEnabled: true },
    },
  },
  null,
);
const contact = { name: 'Sam', email: 'sam@example.com', safeWord: null };

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A stand-in for the check-in endpoints that keeps what was created and closed. */
function checkinServer(initial: MeetupCheckin[] = []) {
  let list = initial;
  const close = (id: string, status: MeetupCheckin['status']) => {
    list = list.map((c) => (c.id === id ? { ...c, status } : c));
    return json(
      200,
      list.find((c) => c.id === id),
    );
  };
  const calls = serve({
    'GET /api/v1/auth/session': session(user),
    'GET /api/v1/me/settings': () => json(200, settings),
    'GET /api/v1/me/alerts': () => json(200, []),
    'GET /api/v1/me/safety-contact': () => json(200, contact),
    'GET /api/v1/matches': () => json(200, [match()]),
    'GET /api/v1/me/checkins': () => json(200, list),
    'POST /api/v1/me/checkins': (init) => {
      const body = JSON.parse(String(init?.body)) as { meetingWho: string; place: string; startsAt: string; checkInBy: string };
      if (new Date(body.checkInBy) <= new Date(body.startsAt))
        return json(400, { error: 'invalid_input', message: MeetupMessages.badTimes, fields: { checkInBy: 'out of range' } });
      const c: MeetupCheckin = {
        id: `k${list.length + 1}`,
        ...body,
        status: 'active',
        contactTold: false,
        createdAt: new Date().toISOString(),
      };
      list = [c, ...list];
      return json(201, c);
    },
    'POST /api/v1/me/checkins/k1/done': () => close('k1', 'checked_in'),
    'POST /api/v1/me/checkins/k2/cancel': () => close('k2', 'cancelled'),
  });
  return calls;
}

async function startCheckin(who: { match?: string; name?: string }, place: string, checkInBy?: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Start a check-in' }));
  const form = await screen.findByRole('form', { name: 'Start a check-in' });
  const pick = await within(form).findByRole('option', { name: 'Alex' });
  expect(pick).toBeTruthy();
  if (who.match) fireEvent.change(within(form).getByLabelText('Who are you meeting?'), { target: { value: who.match } });
  else {
    fireEvent.change(within(form).getByLabelText('Who are you meeting?'), { target: { value: '__other' } });
    fireEvent.change(within(form).getByLabelText('His name'), { target: { value: who.name } });
  }
  fireEvent.change(within(form).getByLabelText('Where?'), { target: { value: place } });
  if (checkInBy) fireEvent.change(within(form).getByLabelText('Check in by'), { target: { value: checkInBy } });
  fireEvent.click(within(form).getByRole('button', { name: 'Start check-in' }));
  return form;
}

describe('meetup check-in in the Safety centre', () => {
  it("starts one with a match, says 'I'm safe'; starts another with a typed name and cancels it", async () => {
    const calls = checkinServer();
    start('/safety');
    const section = await screen.findByRole('region', { name: 'Meetup check-in' });

    // A check-in time before the meetup: the server's words under the field.
    const form = await startCheckin({ match: 'Alex' }, 'The Eagle, Vauxhall', '2000-01-01T10:00');
    expect(await within(form).findByText(MeetupMessages.badTimes)).toBeTruthy();
    const due = new Date(Date.now() + 3 * 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    fireEvent.change(within(form).getByLabelText('Check in by'), {
      target: {
        value: `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}T${pad(due.getHours())}:${pad(due.getMinutes())}`,
      },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Start check-in' }));

    expect(await within(section).findByText(/Check-in active: Alex/)).toBeTruthy();
    const sent = calls.filter((c) => c.key === 'POST /api/v1/me/checkins').at(-1)?.body as {
      meetingWho: string;
      place: string;
      startsAt: string;
      checkInBy: string;
    };
    expect(sent.meetingWho).toBe('Alex');
    expect(sent.place).toBe('The Eagle, Vauxhall');
    expect(new Date(sent.checkInBy).getTime()).toBeGreaterThan(new Date(sent.startsAt).getTime());
    // One at a time: no second start while it runs.
    expect(within(section).queryByRole('button', { name: 'Start a check-in' })).toBeNull();

    fireEvent.click(within(section).getByRole('button', { name: "I'm safe" }));
    await waitFor(() => expect(within(section).queryByText(/Check-in active/)).toBeNull());
    expect(calls.some((c) => c.key === 'POST /api/v1/me/checkins/k1/done')).toBe(true);

    await startCheckin({ name: 'Tom from the bar' }, 'Central Station');
    expect(await within(section).findByText(/Check-in active: Tom from the bar/)).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(section).queryByText(/Check-in active/)).toBeNull());
    expect(calls.some((c) => c.key === 'POST /api/v1/me/checkins/k2/cancel')).toBe(true);
  });

  it('shows a missed check-in as overdue, with the contact told', async () => {
    const past = new Date(Date.now() - 30 * 60_000).toISOString();
    checkinServer([
      {
        id: 'k9',
        meetingWho: 'Alex',
        place: 'His place',
        startsAt: past,
        checkInBy: past,
        status: 'overdue',
        contactTold: false,
        createdAt: past,
      },
    ]);
    start('/safety');
    const section = await screen.findByRole('region', { name: 'Meetup check-in' });
    expect(await within(section).findByText(/You missed your check-in: Alex/)).toBeTruthy();
    expect(within(section).getByText(/We emailed your trusted contact/)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: "I'm safe" })).toBeNull();
  });
});
