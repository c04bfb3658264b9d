import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoWorkIdle, reencodePhoto } from './image.ts';

/** A 4 MP JPEG with detail everywhere, like a phone photo: its re-encode takes a while. */
const phonePhoto = () =>
  sharp({
    create: { width: 2400, height: 1800, channels: 3, background: '#c87850', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();

describe('photoWorkIdle: background image work waits for uploads', () => {
  it('resolves at once when no upload is being re-encoded', async () => {
    let done = false;
    const idle = photoWorkIdle(60_000).then(() => {
      done = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(true);
    await idle;
  });

  it('resolves when the last re-encode under way ends, not before', async () => {
    const input = await phonePhoto();
    const order: string[] = [];
    const first = reencodePhoto(input).then(() => order.push('first re-encoded'));
    const second = reencodePhoto(input).then(() => order.push('second re-encoded'));
    const idle = photoWorkIdle(60_000).then(() => order.push('idle'));
    await Promise.all([first, second, idle]);
    expect(order.indexOf('idle')).toBe(2);
  });

  it('stops waiting after its longest wait when uploads keep the CPUs busy', async () => {
    const input = await phonePhoto();
    const order: string[] = [];
    const busy = reencodePhoto(input).then(() => order.push('re-encoded'));
    await photoWorkIdle(1).then(() => order.push('gave up waiting'));
    await busy;
    expect(order).toEqual(['gave up waiting', 're-encoded']);
  });

  it('counts a refused upload as ended too', async () => {
    await expect(reencodePhoto(Buffer.from('not a photo'))).rejects.toThrow();
    let done = false;
    await photoWorkIdle(60_000).then(() => {
      done = true;
    });
    expect(done).toBe(true);
  });
});
