import { type EventDetail, type EventList, HOUR, MINUTE, type Spot, type SpotList, snap } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser } from '../../../test/cruise.ts';
import { east } from '../../../test/discovery.ts';
import { block, makeStaff, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('cruising spots and group events on %s', (kind) => {
  const t = useTestApp(kind);
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1/cruise${url}`, headers, ...(payload ? { payload } : {}) });
  let city = 0;
  const nextCity = () => ({ lat: -33 - city++ * 0.6, lng: 151.2 });

  /** Makes the user staff with `role` and signs him in to the admin area: his staff session's headers. */
  async function staffSession(u: { id: string; email: string }, role: 'owner' | 'admin' = 'owner'): Promise<Headers> {
    await makeStaff(t().db, u.id, role);
    return staffSignIn(t().app, u.email, t().clock.now());
  }
  const review = (id: string, decision: 'approve' | 'reject', staff: Headers) =>
    t().app.inject({
      method: 'POST',
      url: `/api/v1/admin/locations/${id}/${decision}`,
      headers: staff,
      payload: decision === 'reject' ? { note: 'Not a public place' } : {},
    });

  async function approvedSpot(
    by: Headers,
    staff: Headers,
    at: { lat: number; lng: number },
    name = 'Sunset Park',
  ): Promise<Spot> {
    const proposed = await req('POST', '/spots', by, { name, kind: 'park', description: 'By the lake', ...at });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const reviewed = await review((proposed.json() as Spot).id, 'approve', staff);
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    return (await req('GET', '/spots', by)).json().items.find((s: Spot) => s.id === reviewed.json().id) as Spot;
  }

  it('a proposal is pending, seen only by its author, until staff approve it in the admin area', async () => {
    const here = nextCity();
    const author = await locatedUser(t().app, t().db, here);
    const other = await locatedUser(t().app, t().db, east(here, 1));
    const admin = await locatedUser(t().app, t().db, here);
    const staff = await staffSession(admin, 'admin');

    const res = await req('POST', '/spots', author.headers, { name: ' Sunset Park ', kind: 'park', ...east(here, 2) });
    expect(res.statusCode).toBe(201);
    const spot = res.json() as Spot;
    expect(spot).toMatchObject({ name: 'Sunset Park', status: 'pending', mine: true, checkins: null });
    expect(((await req('GET', '/spots', other.headers)).json() as SpotList).items).toEqual([]);
    expect(((await req('GET', '/spots', author.headers)).json() as SpotList).items.map((s) => s.status)).toEqual(['pending']);

    // The review is no longer a member route: a staff member's own member session reaches nothing.
    expect((await req('GET', '/spots/pending', admin.headers)).statusCode).toBe(404);
    expect((await req('POST', `/spots/${spot.id}/review`, admin.headers, { decision: 'approve' })).statusCode).toBe(404);

    expect((await review(spot.id, 'approve', staff)).json()).toMatchObject({ status: 'approved' });
    const seen = (await req('GET', '/spots', other.headers)).json() as SpotList;
    expect(seen.items.map((s) => [s.id, s.distance])).toEqual([[spot.id, '< 1 mi']]);

    expect((await review(spot.id, 'reject', staff)).json()).toMatchObject({ status: 'rejected' });
    expect(((await req('GET', '/spots', other.headers)).json() as SpotList).items).toEqual([]);
  });

  it('rejects bad coordinates and bad fields with a clear 400, storing nothing', async () => {
    const here = nextCity();
    const u = await locatedUser(t().app, t().db, here);
    const cases: [object, string][] = [
      [{ name: 'X', kind: 'park', lat: 95, lng: 0 }, 'Latitude must be between -90 and 90.'],
      [{ name: 'X', kind: 'park', lat: 0, lng: 200 }, 'Longitude must be between -180 and 180.'],
      [{ name: 'X', kind: 'park', lat: 'north', lng: 0 }, 'Latitude must be a number.'],
      [{ name: 'X', kind: 'park', lat: 0 }, 'Longitude must be a number.'],
      [{ name: '', kind: 'park', lat: 0, lng: 0 }, 'Name is required.'],
      [{ name: 'X', kind: 'castle', lat: 0, lng: 0 }, 'Kind must be one of: park, beach, sauna, bar, club, gym, woods, other.'],
    ];
    for (const [body, message] of cases) {
      const res = await req('POST', '/spots', u.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const place = await req('POST', '/events', u.headers, {
      title: 'Meet',
      startsAt: new Date(t().clock.now().getTime() + HOUR).toISOString(),
      place: { name: 'Pier', lat: -91, lng: 0 },
    });
    expect(place.statusCode).toBe(400);
    expect(place.json().message).toBe('Latitude must be between -90 and 90.');
    const mine = await t().db.selectFrom('cruising_spots').select('id').where('proposed_by', '=', u.id).execute();
    expect(mine).toEqual([]);
  });

  it('check-ins show only as a count from 3 people, one spot at a time', async () => {
    const here = nextCity();
    const admin = await locatedUser(t().app, t().db, here);
    const staff = await staffSession(admin);
    const spot = await approvedSpot(admin.headers, staff, east(here, 0.5));
    const other = await approvedSpot(admin.headers, staff, east(here, 1.5), 'Dunes');
    const users = [
      await locatedUser(t().app, t().db, here),
      await locatedUser(t().app, t().db, here),
      await locatedUser(t().app, t().db, here),
    ];
    const count = async (h: Headers, id = spot.id) =>
      ((await req('GET', '/spots', h)).json() as SpotList).items.find((s) => s.id === id)?.checkins;

    const first = await req('POST', `/spots/${spot.id}/checkin`, users[0]!.headers, { minutes: 30 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ checkins: null });
    expect(first.json().myCheckinUntil).toBe(new Date(t().clock.now().getTime() + 30 * MINUTE).toISOString());
    await req('POST', `/spots/${spot.id}/checkin`, users[1]!.headers, {});
    expect(await count(admin.headers)).toBeNull();
    await req('POST', `/spots/${spot.id}/checkin`, users[2]!.headers, {});
    expect(await count(admin.headers)).toBe(3);
    // A check-in elsewhere ends the one here.
    await req('POST', `/spots/${other.id}/checkin`, users[2]!.headers, {});
    expect(await count(admin.headers)).toBeNull();
    await req('POST', `/spots/${spot.id}/checkin`, users[2]!.headers, {});
    expect(await count(admin.headers)).toBe(3);
    const out = await req('DELETE', `/spots/${spot.id}/checkin`, users[1]!.headers);
    expect(out.json()).toMatchObject({ myCheckinUntil: null, checkins: null });
    // Check-ins run out: user 0's 30 minutes, the others' default hour.
    await req('POST', `/spots/${spot.id}/checkin`, users[1]!.headers, {});
    t().clock.advance(31 * MINUTE);
    expect(await count(admin.headers)).toBeNull();
    // Nobody checks in to a spot that is not approved.
    const pending = (await req('POST', '/spots', admin.headers, { name: 'New', kind: 'bar', ...here })).json() as Spot;
    expect((await req('POST', `/spots/${pending.id}/checkin`, users[0]!.headers, {})).statusCode).toBe(404);
    expect((await req('POST', `/spots/${spot.id}/checkin`, users[0]!.headers, { minutes: 5 })).statusCode).toBe(400);
  });

  it('events: create at a spot or a place, attend, leave, comment, and only the creator cancels', async () => {
    const here = nextCity();
    const creator = await locatedUser(t().app, t().db, here);
    const guest = await locatedUser(t().app, t().db, east(here, 2));
    const far = await locatedUser(t().app, t().db, east(here, 60));
    const spot = await approvedSpot(creator.headers, await staffSession(creator, 'admin'), east(here, 1));
    const startsAt = new Date(t().clock.now().getTime() + 2 * HOUR).toISOString();

    const atSpot = await req('POST', '/events', creator.headers, { title: 'Sunset meet', spotId: spot.id, startsAt });
    expect(atSpot.statusCode, atSpot.body).toBe(201);
    const e1 = atSpot.json() as EventDetail;
    expect(e1).toMatchObject({
      placeName: 'Sunset Park',
      lat: spot.lat,
      attendees: 1,
      attending: true,
      mine: true,
      status: 'scheduled',
    });
    expect(new Date(e1.endsAt).getTime() - new Date(e1.startsAt).getTime()).toBe(2 * HOUR);

    const rawPlace = east(here, 3.3);
    const atPlace = await req('POST', '/events', creator.headers, {
      title: 'Pier drinks',
      place: { name: 'The pier', ...rawPlace },
      startsAt,
      durationMinutes: 60,
    });
    expect(atPlace.statusCode).toBe(201);
    // A place is kept as its cell centre only.
    expect(atPlace.json()).toMatchObject(snap(rawPlace));

    const list = (await req('GET', '/events', guest.headers)).json() as EventList;
    expect(list.items.map((e) => e.title)).toEqual(expect.arrayContaining(['Sunset meet', 'Pier drinks']));
    expect(((await req('GET', '/events', far.headers)).json() as EventList).items).toEqual([]);

    const attended = (await req('POST', `/events/${e1.id}/attend`, guest.headers)).json() as EventDetail;
    expect(attended).toMatchObject({ attendees: 2, attending: true, mine: false });
    const comment = await req('POST', `/events/${e1.id}/comments`, guest.headers, { body: 'See you there' });
    expect(comment.statusCode).toBe(201);
    expect(comment.json()).toMatchObject({ body: 'See you there', author: { uid: guest.id } });
    expect((await req('POST', `/events/${e1.id}/comments`, guest.headers, { body: '  ' })).json().message).toBe(
      'Comment is required.',
    );
    const detail = (await req('GET', `/events/${e1.id}`, creator.headers)).json() as EventDetail;
    expect(detail.comments.map((c) => c.body)).toEqual(['See you there']);
    const left = (await req('DELETE', `/events/${e1.id}/attend`, guest.headers)).json() as EventDetail;
    expect(left).toMatchObject({ attendees: 1, attending: false });

    const notYours = await req('POST', `/events/${e1.id}/cancel`, guest.headers);
    expect(notYours.statusCode).toBe(403);
    expect(notYours.json().message).toBe('Only the person who created this event can cancel it.');
    const cancelled = await req('POST', `/events/${e1.id}/cancel`, creator.headers);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const late = await req('POST', `/events/${e1.id}/attend`, guest.headers);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This event was cancelled.');

    // A blocked creator's events are not found.
    await block(t().db, guest.id, creator.id);
    expect((await req('GET', `/events/${e1.id}`, guest.headers)).statusCode).toBe(404);
  });

  it('refuses events in the past, too far ahead, or with both or neither of a spot and a place', async () => {
    const here = nextCity();
    const u = await locatedUser(t().app, t().db, here);
    const now = t().clock.now().getTime();
    const place = { name: 'Pier', ...here };
    const cases: [object, string][] = [
      [{ title: 'X', place, startsAt: new Date(now - HOUR).toISOString() }, 'The event must start in the future.'],
      [
        { title: 'X', place, startsAt: new Date(now + 100 * 24 * HOUR).toISOString() },
        'Events can be planned at most 90 days ahead.',
      ],
      [{ title: 'X', startsAt: new Date(now + HOUR).toISOString() }, 'Choose either a spot or a place for the event.'],
      [{ title: 'X', place, startsAt: 'tomorrow' }, 'Start time must be a date and time.'],
      [
        { title: 'X', spotId: 'missing', startsAt: new Date(now + HOUR).toISOString() },
        'That spot does not exist or is not approved yet.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await req('POST', '/events', u.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });
});
