import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOAST_DURATION,
  durationFor,
  MAX_TOASTS,
  makeToast,
  pushToast,
  removeToast,
  type Toast,
  timeLabel,
} from './toasts.ts';

const t = (id: string): Toast => makeToast({ type: 'info', title: id }, id, 0);

describe('toast durations (spec 9)', () => {
  it.each([
    ['success', 4000],
    ['error', 6000],
    ['warning', 5000],
    ['info', 4000],
    ['match', 8000],
    ['message', 5000],
    ['upgrade', 7000],
    ['super-fuck', 8000],
    ['super-marry', 8000],
  ] as const)('%s lasts %i ms', (type, ms) => {
    expect(durationFor(type)).toBe(ms);
  });

  it('falls back to 5000 ms for a type without its own duration', () => {
    expect(DEFAULT_TOAST_DURATION).toBe(5000);
    expect(durationFor('location')).toBe(5000);
  });

  it('makeToast uses the type duration unless one is given', () => {
    expect(makeToast({ type: 'error', title: 'x' }, 'a', 10)).toMatchObject({ id: 'a', timestamp: 10, duration: 6000 });
    expect(makeToast({ type: 'error', title: 'x', duration: 1234 }, 'a', 10).duration).toBe(1234);
  });
});

describe('toast list', () => {
  it('shows a keyed toast once: a second with the same key replaces the first', () => {
    const keyed = (id: string, key?: string) => ({ ...t(id), ...(key ? { key } : {}) });
    let list = pushToast([], keyed('a', 'message-limit'));
    list = pushToast(list, keyed('b'));
    list = pushToast(list, keyed('c', 'message-limit'));
    expect(list.map((x) => x.id)).toEqual(['c', 'b']);
    list = pushToast(list, keyed('d', 'other'));
    expect(list.map((x) => x.id)).toEqual(['d', 'c', 'b']);
  });

  it('puts the newest toast on top', () => {
    const list = pushToast(pushToast([], t('first')), t('second'));
    expect(list.map((x) => x.id)).toEqual(['second', 'first']);
  });

  it('caps the list at 5 by default, dropping the oldest', () => {
    expect(MAX_TOASTS).toBe(5);
    let list: Toast[] = [];
    for (let i = 1; i <= 7; i++) list = pushToast(list, t(`t${i}`));
    expect(list.map((x) => x.id)).toEqual(['t7', 't6', 't5', 't4', 't3']);
  });

  it('honours a custom cap and removes by id', () => {
    const list = pushToast(pushToast([t('a')], t('b'), 1), t('c'), 2);
    expect(list.map((x) => x.id)).toEqual(['c', 'b']);
    expect(removeToast(list, 'c').map((x) => x.id)).toEqual(['b']);
  });
});

describe('timeLabel', () => {
  const now = 10 * 24 * 3600_000;
  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [60_000, '1m ago'],
    [59 * 60_000 + 59_000, '59m ago'],
    [3600_000, '1h ago'],
    [23 * 3600_000 + 59 * 60_000, '23h ago'],
    [24 * 3600_000, '1d ago'],
    [3 * 24 * 3600_000 + 5, '3d ago'],
  ])('%i ms ago reads %s', (elapsed, label) => {
    expect(timeLabel(now - elapsed, now)).toBe(label);
  });

  it('treats a timestamp in the future as just now', () => {
    expect(timeLabel(now + 5000, now)).toBe('just now');
  });
});
