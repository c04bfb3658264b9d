import { snap } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { type OtherUserRow, presentUser, userCard } from './present.ts';

/** The privacy step every list answer takes (grid, nearby, matches, likes, conversations, events). */
describe('presentUser', () => {
  const viewer = { centre: snap({ lat: 37.7765, lng: -122.4172 }), units: 'metric' as const };
  const him: OtherUserRow & { lat: number; lng: number } = {
    id: 'u1',
    display_name: 'Sam',
    age: 30,
    photo_url: '/files/photos/u1/a.webp',
    ...snap({ lat: 37.8044, lng: -122.2712 }),
    is_online: true,
    show_online_status: null,
    right_now_enabled: true,
    right_now: 'Up for a drink',
  };

  it('gives a bucketed distance between cell centres, never the point or a number', () => {
    const p = presentUser(him, viewer);
    expect(p.distance).toBe('15 km');
    expect(presentUser(him, { ...viewer, units: 'imperial' }).distance).toBe('8 mi');
    expect(JSON.stringify(p)).not.toContain(String(him.lat));
    expect(JSON.stringify(p)).not.toContain(String(him.lng));
    // Without an onlooker there is no distance at all.
    expect(presentUser(him).distance).toBeNull();
  });

  it('shows online only when he shows it (no settings row yet: shown)', () => {
    expect(presentUser({ ...him, show_online_status: true }).isOnline).toBe(true);
    expect(presentUser({ ...him, show_online_status: null }).isOnline).toBe(true);
    expect(presentUser({ ...him, show_online_status: null, is_online: false }).isOnline).toBe(false);
    expect(presentUser({ ...him, show_online_status: false }).isOnline).toBeNull();
    // A row that did not read his setting tells nothing.
    const { show_online_status: _, ...unread } = him;
    expect(presentUser(unread).isOnline).toBeNull();
  });

  it('shows Right Now only while he has it on', () => {
    expect(presentUser(him).rightNow).toBe('Up for a drink');
    expect(presentUser({ ...him, right_now_enabled: false }).rightNow).toBeNull();
    expect(presentUser({ ...him, right_now_enabled: null }).rightNow).toBeNull();
    expect(presentUser({ ...him, right_now: null }).rightNow).toBeNull();
  });

  it('gives the photo as its thumbnail; an outside URL or none as it is', () => {
    expect(presentUser(him).photoURL).toBe('/files/photos/u1/a.t.webp');
    expect(presentUser({ ...him, photo_url: 'https://example.com/a.png' }).photoURL).toBe('https://example.com/a.png');
    expect(presentUser({ ...him, photo_url: null }).photoURL).toBeNull();
  });

  it('the short card carries id, name, thumbnail and the verified badge only', () => {
    expect(userCard(him)).toEqual({ uid: 'u1', displayName: 'Sam', photoURL: '/files/photos/u1/a.t.webp', verified: false });
  });

  it('says verified when he verified a phone number (a row that did not read it: not), never the number', () => {
    const verified = { ...him, phone_verified_at: new Date('2026-06-01T12:00:00Z') };
    expect(presentUser(verified).verified).toBe(true);
    expect(userCard(verified).verified).toBe(true);
    expect(presentUser({ ...him, phone_verified_at: null }).verified).toBe(false);
    expect(presentUser(him).verified).toBe(false);
  });
});
