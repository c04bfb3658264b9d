import { DEFAULT_SETTINGS, snap } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { type OtherUserRow, presentUser, userCard, type Viewer } from './present.ts';

/** The privacy step every list answer takes (grid, nearby, matches, likes, conversations, events). */
describe('presentUser', () => {
  const onlooker = { centre: snap({ lat: 37.7765, lng: -122.4172 }), units: 'metric' as const };
  // A viewer with the default content filter (nothing hidden from an unflagged photo).
  const anyone: Viewer = { userSettings: DEFAULT_SETTINGS };
  const him: OtherUserRow & { lat: number; lng: number } = {
    id: 'u1',
    display_name: 'Sam',
    age: 30,
    photo_url: '/files/photos/u1/a.webp',
    photo_nudity: null,
    photo_sensitive: false,
    ...snap({ lat: 37.8044, lng: -122.2712 }),
    // His place's shift (drawn once per location): labels are measured to his place, not his cell.
    shift_lat: 0.3,
    shift_lng: 0.7,
    is_online: true,
    show_online_status: null,
    right_now_enabled: true,
    right_now: 'Up for a drink',
  };

  it('gives a bucketed distance between cell centres, never the point or a number', () => {
    const p = presentUser(him, anyone, onlooker);
    expect(p.distance).toBe('10 km');
    expect(presentUser(him, anyone, { ...onlooker, units: 'imperial' }).distance).toBe('8 mi');
    expect(JSON.stringify(p)).not.toContain(String(him.lat));
    expect(JSON.stringify(p)).not.toContain(String(him.lng));
    // Without an onlooker there is no distance at all.
    expect(presentUser(him, anyone).distance).toBeNull();
    // Nor for a row without his place's shift (a location stored before places): no label from his cell.
    const { shift_lat: _lat, shift_lng: _lng, ...unshifted } = him;
    expect(presentUser(unshifted, anyone, onlooker).distance).toBeNull();
  });

  it('shows online only when he shows it (no settings row yet: shown)', () => {
    expect(presentUser({ ...him, show_online_status: true }, anyone).isOnline).toBe(true);
    expect(presentUser({ ...him, show_online_status: null }, anyone).isOnline).toBe(true);
    expect(presentUser({ ...him, show_online_status: null, is_online: false }, anyone).isOnline).toBe(false);
    expect(presentUser({ ...him, show_online_status: false }, anyone).isOnline).toBeNull();
    // A row that did not read his setting tells nothing.
    const { show_online_status: _, ...unread } = him;
    expect(presentUser(unread, anyone).isOnline).toBeNull();
  });

  it('shows Right Now only while he has it on', () => {
    expect(presentUser(him, anyone).rightNow).toBe('Up for a drink');
    expect(presentUser({ ...him, right_now_enabled: false }, anyone).rightNow).toBeNull();
    expect(presentUser({ ...him, right_now_enabled: null }, anyone).rightNow).toBeNull();
    expect(presentUser({ ...him, right_now: null }, anyone).rightNow).toBeNull();
  });

  it('gives the photo as its thumbnail; an outside URL or none as it is', () => {
    expect(presentUser(him, anyone).photoURL).toBe('/files/photos/u1/a.t.webp');
    expect(presentUser({ ...him, photo_url: 'https://example.com/a.png' }, anyone).photoURL).toBe('https://example.com/a.png');
    expect(presentUser({ ...him, photo_url: null }, anyone).photoURL).toBeNull();
  });

  it('the short card carries id, name, thumbnail and the verified badge only', () => {
    expect(userCard(him, anyone)).toEqual({
      uid: 'u1',
      displayName: 'Sam',
      photoURL: '/files/photos/u1/a.t.webp',
      verified: false,
    });
  });

  it('says verified when he verified a phone number (a row that did not read it: not), never the number', () => {
    const verified = { ...him, phone_verified_at: new Date('2026-06-01T12:00:00Z') };
    expect(presentUser(verified, anyone).verified).toBe(true);
    expect(userCard(verified, anyone).verified).toBe(true);
    expect(presentUser({ ...him, phone_verified_at: null }, anyone).verified).toBe(false);
    expect(presentUser(him, anyone).verified).toBe(false);
  });
});
