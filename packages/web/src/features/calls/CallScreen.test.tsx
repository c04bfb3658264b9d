import type { Call } from '@fmk/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeQueryClient } from '../../app/App.tsx';
import { json, serve } from '../../test/fixtures.tsx';
import { FakeMediaStream, FakePeerConnection, FakeTrack, stubWebRtc } from '../../test/webrtc.ts';
import { ToastProvider } from '../../ui/toast/ToastProvider.tsx';
import { CallLayer } from './CallLayer.tsx';
import { callSnapshot, dismissCall, handleCallEvent } from './store.ts';

// The call screen's controls through the store and the engine; the camera, the microphone, the
// loudspeaker and the peer connection are the browser's, stood in for here (test/webrtc.ts).

const HIM = { uid: 'him', displayName: 'Ben', photoURL: null };
const ringing: Call = {
  id: 'c1',
  kind: 'video',
  state: 'ringing',
  outcome: null,
  callerId: HIM.uid,
  calleeId: 'me',
  conversationId: 'conv',
  other: HIM,
  callerDevice: 'his-tab-0001',
  calleeDevice: null,
  createdAt: '2026-06-01T12:00:00.000Z',
  ringUntil: '2026-06-01T12:00:45.000Z',
  answeredAt: null,
  endedAt: null,
};

const SPEAKER = { kind: 'audiooutput', deviceId: 'speaker-1', label: 'Speakerphone' };
const EARPIECE = { kind: 'audiooutput', deviceId: 'earpiece-1', label: 'Earpiece' };
let cameras = 2;
const getUserMedia = vi.fn(async (c: MediaStreamConstraints) =>
  c.audio
    ? new FakeMediaStream([new FakeTrack('audio'), new FakeTrack('video', 'front')])
    : new FakeMediaStream([new FakeTrack('video', 'back')]),
);
const sinks: string[] = [];
// The test DOM's <video> takes only its own MediaStream; the stand-in streams are plain objects.
const srcObject = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject');

beforeEach(() => {
  stubWebRtc();
  cameras = 2;
  getUserMedia.mockClear();
  sinks.length = 0;
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia,
      enumerateDevices: async () => [
        ...Array.from({ length: cameras }, (_, i) => ({ kind: 'videoinput', deviceId: `cam-${i}`, label: '' })),
        SPEAKER,
        EARPIECE,
      ],
    },
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', { configurable: true, writable: true, value: null });
  Object.defineProperty(HTMLMediaElement.prototype, 'setSinkId', {
    configurable: true,
    value: async (id: string) => {
      sinks.push(id);
    },
  });
  serve({
    'GET /api/v1/calls/ice-servers': () => json(200, { iceServers: [], ttlSeconds: null, relayOnly: false }),
    'POST /api/v1/calls/c1/accept': () =>
      json(200, { ...ringing, state: 'active', calleeDevice: 'this-tab', answeredAt: '2026-06-01T12:00:05.000Z' }),
    'POST /api/v1/calls/c1/signal': () => new Response(null, { status: 204 }),
  });
});

afterEach(() => {
  act(() => dismissCall());
  cleanup();
  Reflect.deleteProperty(HTMLMediaElement.prototype, 'setSinkId');
  if (srcObject) Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', srcObject);
  vi.unstubAllGlobals();
});

/** He answers Ben's video call and the connection comes up. */
async function inCall() {
  FakePeerConnection.last = null;
  render(
    <QueryClientProvider client={makeQueryClient()}>
      <ToastProvider>
        <MemoryRouter>
          <CallLayer />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  act(() => void handleCallEvent({ type: 'call', call: ringing }));
  fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
  await vi.waitFor(() => expect(FakePeerConnection.last).not.toBeNull());
  act(() => FakePeerConnection.last!.move('connected'));
  await screen.findByTestId('call-timer');
  return FakePeerConnection.last!;
}

describe('the call screen', () => {
  it('turns the camera off and on: his video track is disabled (black frames), the button says which', async () => {
    await inCall();
    const video = callSnapshot()!.engine.state.local!.getVideoTracks()[0]!;
    const off = screen.getByRole('button', { name: 'Camera off' });
    expect(off.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(off);
    expect(video.enabled).toBe(false);
    const on = screen.getByRole('button', { name: 'Camera on' });
    expect(on.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(on);
    expect(video.enabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Camera off' })).toBeTruthy();
  });

  it('flips to the back camera in the same connection, and offers no flip with one camera', async () => {
    const pc = await inCall();
    const front = callSnapshot()!.engine.state.local!.getVideoTracks()[0] as unknown as FakeTrack;
    const flip = screen.getByRole('button', { name: 'Flip' }) as HTMLButtonElement;
    expect(flip.disabled).toBe(false);
    await act(async () => fireEvent.click(flip));
    await vi.waitFor(() => expect(getUserMedia).toHaveBeenLastCalledWith({ video: { facingMode: 'environment' } }));
    const videoSender = pc.senders.find((s) => s.track?.label === 'back');
    await vi.waitFor(() => expect(videoSender?.replaceTrack).toHaveBeenCalled());
    expect(front.stopped).toBe(true);
    const local = callSnapshot()!.engine.state.local!;
    expect(local.getVideoTracks().map((t) => (t as unknown as FakeTrack).label)).toEqual(['back']);
    act(() => dismissCall());
    cleanup();

    cameras = 1;
    await inCall();
    expect((screen.getByRole('button', { name: 'Flip' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('plays his voice on the loudspeaker, and on the earpiece when speaker is turned off', async () => {
    await inCall();
    const speaker = screen.getByRole('button', { name: 'Speaker' });
    expect(speaker.getAttribute('aria-pressed')).toBe('true');
    await vi.waitFor(() => expect(sinks.at(-1)).toBe(SPEAKER.deviceId));
    fireEvent.click(speaker);
    expect(speaker.getAttribute('aria-pressed')).toBe('false');
    await vi.waitFor(() => expect(sinks.at(-1)).toBe(EARPIECE.deviceId));
    fireEvent.click(speaker);
    await vi.waitFor(() => expect(sinks.at(-1)).toBe(SPEAKER.deviceId));
  });

  it('says a refused signal of a caller who lost Premium on the ended screen, with the way to Premium', async () => {
    await inCall();
    act(
      () =>
        void handleCallEvent({
          type: 'call-error',
          callId: 'c1',
          status: 403,
          message: 'Video calls are available with Premium membership...',
        }),
    );
    expect(screen.getByTestId('call-screen').getAttribute('data-phase')).toBe('ended');
    expect(screen.getByRole('alert').textContent).toContain('Video calls are available with Premium membership...');
    expect(screen.getByRole('link', { name: 'See Premium' }).getAttribute('href')).toBe('/settings/premium');
  });
});
