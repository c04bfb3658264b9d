import { DISPLAY_DEFAULTS, formatCallTimer } from '@fmk/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Avatar } from '../../ui/Avatar.tsx';
import { ButtonLink } from '../../ui/Button.tsx';
import {
  CloseIcon,
  FlagIcon,
  MicIcon,
  MicOffIcon,
  PhoneIcon,
  PhoneOffIcon,
  SpeakerIcon,
  SpeakerOffIcon,
  StarIcon,
  SwitchCameraIcon,
  VideoIcon,
  VideoOffIcon,
} from '../../ui/icons.tsx';
import { ReportSheet } from '../safety/ReportSheet.tsx';
import { acceptCall, type CallView, declineCall, dismissCall, hangUp, keepCallScreen } from './store.ts';

const QUALITY_TEXT = { good: 'Good connection', fair: 'Fair connection', poor: 'Poor connection' } as const;
const QUALITY_DOT = { good: 'bg-emerald-500', fair: 'bg-amber-500', poor: 'bg-primary-strong' } as const;

function useTimer(since: number | null): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [since]);
  return since === null ? '0:00' : formatCallTimer(now - since);
}

function useStream(stream: MediaStream | null, onFirstFrame?: () => void) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !stream) return;
    if (el.srcObject !== stream) el.srcObject = stream;
    void el.play().catch(() => undefined);
    if (onFirstFrame && 'requestVideoFrameCallback' in el) el.requestVideoFrameCallback(() => onFirstFrame());
  });
  return ref;
}

/** Round button with a visible label under it (thumb-sized, 56 px). */
function RoundButton({
  label,
  onClick,
  pressed,
  tone = 'light',
  children,
  disabled,
}: {
  label: string;
  onClick: () => void;
  pressed?: boolean;
  tone?: 'light' | 'red' | 'green';
  children: ReactNode;
  disabled?: boolean;
}) {
  const colours =
    tone === 'red'
      ? 'bg-primary-strong text-white hover:bg-[#b8233a]'
      : tone === 'green'
        ? 'bg-emerald-600 text-white hover:bg-emerald-700'
        : pressed
          ? 'bg-ink text-white'
          : 'bg-white text-ink ring-1 ring-line hover:bg-canvas';
  return (
    <span className="flex w-[4.5rem] flex-col items-center gap-1">
      <button
        type="button"
        aria-label={label}
        aria-pressed={pressed}
        onClick={onClick}
        disabled={disabled}
        className={`flex size-14 items-center justify-center rounded-full shadow-sm transition-colors disabled:opacity-40 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-strong ${colours}`}
      >
        {children}
      </button>
      <span className="text-center text-xs font-semibold whitespace-nowrap text-ink" aria-hidden="true">
        {label}
      </span>
    </span>
  );
}

function statusText(v: CallView): string {
  const word = v.call.kind === 'video' ? 'video' : 'voice';
  switch (v.phase) {
    case 'outgoing':
      return v.asking ? 'Waiting for your camera and microphone…' : 'Calling…';
    case 'incoming':
      return `Incoming ${word} call`;
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return v.engine.state.reconnecting ? 'Reconnecting…' : '';
    case 'ended': {
      const c = v.call;
      const talked = c.outcome === 'finished' && c.answeredAt && c.endedAt;
      const text = v.endedText ?? 'Call ended';
      return talked ? `${text} · ${formatCallTimer(Date.parse(c.endedAt ?? '') - Date.parse(c.answeredAt ?? ''))}` : text;
    }
    case 'denied':
      return v.call.kind === 'video' ? 'Camera and microphone blocked' : 'Microphone blocked';
  }
}

export function CallScreen({ view: v }: { view: CallView }) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [reporting, setReporting] = useState(false);
  const e = v.engine.state;
  const name = v.call.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
  const video = v.call.kind === 'video';
  const live = v.phase === 'connected' || v.phase === 'connecting';
  const showVideo = video && live && e.remote !== null;
  // While his phone rings, a video caller sees himself, full screen (then in the corner).
  const selfFull = video && v.phase === 'outgoing' && e.local !== null;
  const overlay = showVideo || selfFull;
  const timer = useTimer(v.phase === 'connected' ? e.connectedAt : null);
  const remoteRef = useStream(e.remote, () => {
    v.engine.marks.firstFrameAt ??= performance.now();
  });
  const localRef = useStream(video ? e.local : null);
  const speakerSupported = typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal?.();
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    const el = remoteRef.current as (HTMLVideoElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (!el?.setSinkId) return;
    void navigator.mediaDevices
      ?.enumerateDevices()
      .then((ds) => {
        const outs = ds.filter((d) => d.kind === 'audiooutput');
        const pick = outs.find((d) =>
          (e.speaker ? /speaker/i : /earpiece|headset|communications/i).test(`${d.label} ${d.deviceId}`),
        );
        return el.setSinkId?.(pick?.deviceId ?? '');
      })
      .catch(() => undefined);
  }, [e.speaker, remoteRef]);

  const title = `${video ? 'Video' : 'Voice'} call with ${name}`;
  const status = statusText(v);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      data-testid="call-screen"
      data-phase={v.phase}
      onCancel={(ev) => ev.preventDefault()}
      className="m-0 h-dvh max-h-none w-full max-w-none bg-white p-0 text-ink backdrop:bg-white"
    >
      <div className="relative mx-auto flex h-full w-full max-w-md flex-col overflow-hidden bg-gradient-to-b from-primary-soft via-white to-white">
        {video && live ? (
          // biome-ignore lint/a11y/useMediaCaption: a live call has no caption track to offer
          <video
            ref={remoteRef}
            data-testid="remote-video"
            autoPlay
            playsInline
            className={`absolute inset-0 size-full bg-[#1f1f24] object-cover ${showVideo ? '' : 'hidden'}`}
          />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: a live call has no caption track to offer
          <video ref={remoteRef} autoPlay playsInline className="hidden" data-testid="remote-audio" />
        )}
        <header
          className={`relative z-10 flex flex-col gap-1 px-6 pt-[max(2.5rem,env(safe-area-inset-top))] ${
            // In a video call his name, the timer and the quality sit left of one's own picture (top right).
            showVideo ? 'items-start pr-36 text-left' : 'items-center text-center'
          } ${overlay ? 'bg-gradient-to-b from-black/60 to-transparent pb-10 text-white' : ''}`}
        >
          {showVideo ? null : (
            <span
              className={`mb-4 rounded-full ${v.phase === 'incoming' || v.phase === 'outgoing' ? 'animate-pulse ring-8 ring-primary/25' : ''}`}
            >
              <Avatar person={v.call.other} name={name} width={128} className="size-32 rounded-full object-cover" />
            </span>
          )}
          {/* Focus starts on his name (read first), not on Decline or Hang up. */}
          <h2 ref={headingRef} className="text-2xl font-bold outline-none" tabIndex={-1}>
            {name}
          </h2>
          <p className={`text-base ${overlay ? 'text-white' : 'text-muted'}`} aria-live="polite" data-testid="call-status">
            {v.phase === 'connected' ? (
              <span className="font-semibold tabular-nums" data-testid="call-timer">
                {timer}
              </span>
            ) : null}
            {status ? <span className="block">{status}</span> : null}
          </p>
          {v.phase === 'connected' && e.quality ? (
            <span
              data-testid="call-quality"
              className={`mt-1 inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-semibold ${showVideo ? 'bg-black/40 text-white' : 'bg-white text-ink ring-1 ring-line'}`}
            >
              <span className={`size-2 rounded-full ${QUALITY_DOT[e.quality]}`} aria-hidden="true" />
              {QUALITY_TEXT[e.quality]}
            </span>
          ) : null}
        </header>

        {video && e.local && (live || v.phase === 'outgoing') ? (
          <video
            ref={localRef}
            data-testid="local-video"
            aria-label="Your camera"
            autoPlay
            playsInline
            muted
            className={`absolute bg-[#1f1f24] object-cover [transform:scaleX(-1)] ${
              selfFull
                ? 'inset-0 size-full'
                : 'top-[max(1rem,env(safe-area-inset-top))] right-4 z-20 h-40 w-28 rounded-2xl shadow-lg ring-2 ring-white'
            } ${e.cameraOff ? 'opacity-30' : ''}`}
          />
        ) : null}

        <div className="relative z-10 mt-auto px-4 pb-[max(2rem,env(safe-area-inset-bottom))]">
          {v.phase === 'outgoing' && v.asking ? (
            <p className="mb-6 rounded-2xl bg-white px-4 py-3 text-center text-sm text-ink ring-1 ring-line">
              Allow your {video ? 'camera and microphone' : 'microphone'} when your browser asks, so {name} can{' '}
              {video ? 'see and hear' : 'hear'} you.
            </p>
          ) : null}
          {v.phase === 'denied' ? <Denied video={video} /> : null}
          {v.phase === 'ended' && v.refusal ? <Refusal message={v.refusal} /> : null}
          <Controls
            v={v}
            video={video}
            speakerSupported={speakerSupported}
            onReport={() => {
              keepCallScreen();
              setReporting(true);
            }}
          />
        </div>
      </div>
      <ReportSheet
        open={reporting}
        onClose={() => setReporting(false)}
        userId={v.call.other.uid}
        name={name}
        note={`Reported from a ${video ? 'video' : 'voice'} call (${v.call.id}).`}
      />
    </dialog>
  );
}

function Denied({ video }: { video: boolean }) {
  return (
    <div role="alert" className="mb-6 rounded-2xl bg-white px-4 py-4 text-left text-sm text-ink ring-1 ring-line">
      <p className="font-semibold">Your browser blocked the {video ? 'camera and microphone' : 'microphone'}.</p>
      <p className="mt-1 text-muted">
        Calls need {video ? 'them' : 'it'}. Open the site settings (the lock or tune icon beside the address), allow{' '}
        {video ? 'Camera and Microphone' : 'Microphone'}, then call again. On a phone, also check the browser is allowed to use
        them in the phone&apos;s settings.
      </p>
    </div>
  );
}

/** The server ended his call because his tier lost video calls: its text and the way back to them. */
function Refusal({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="mb-6 flex flex-col gap-3 rounded-2xl bg-white px-4 py-4 text-center text-sm text-ink ring-1 ring-line"
    >
      <span
        className="mx-auto flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700"
        aria-hidden="true"
      >
        <StarIcon width={24} height={24} fill="currentColor" />
      </span>
      <p className="text-base">{message}</p>
      <ButtonLink to="/settings/premium" block onClick={dismissCall}>
        See Premium
      </ButtonLink>
    </div>
  );
}

function Controls({
  v,
  video,
  speakerSupported,
  onReport,
}: {
  v: CallView;
  video: boolean;
  speakerSupported: boolean;
  onReport: () => void;
}) {
  const e = v.engine.state;
  if (v.phase === 'incoming') {
    return (
      <div className="flex items-end justify-around">
        <RoundButton label="Decline" tone="red" onClick={() => void declineCall()}>
          <PhoneOffIcon />
        </RoundButton>
        <RoundButton label="Accept" tone="green" onClick={() => void acceptCall()}>
          {video ? <VideoIcon /> : <PhoneIcon />}
        </RoundButton>
      </div>
    );
  }
  if (v.phase === 'ended' || v.phase === 'denied') {
    return (
      <div className="flex items-end justify-around">
        <RoundButton label="Report" onClick={onReport}>
          <FlagIcon />
        </RoundButton>
        <RoundButton label="Close" onClick={dismissCall}>
          <CloseIcon />
        </RoundButton>
      </div>
    );
  }
  const live = v.phase === 'connected' || v.phase === 'connecting';
  return (
    <div className="flex flex-col gap-4 rounded-3xl bg-white/90 px-2 py-4 shadow-lg ring-1 ring-line backdrop-blur">
      <div className="flex items-start justify-around">
        <RoundButton
          label={e.muted ? 'Unmute' : 'Mute'}
          pressed={e.muted}
          disabled={!live}
          onClick={() => void v.engine.setMuted(!e.muted)}
        >
          {e.muted ? <MicOffIcon /> : <MicIcon />}
        </RoundButton>
        {video ? (
          <RoundButton
            label={e.cameraOff ? 'Camera on' : 'Camera off'}
            pressed={e.cameraOff}
            disabled={!e.local}
            onClick={() => v.engine.setCameraOff(!e.cameraOff)}
          >
            {e.cameraOff ? <VideoOffIcon /> : <VideoIcon />}
          </RoundButton>
        ) : null}
        {video ? (
          <RoundButton label="Flip" disabled={!e.local || e.cameras < 2} onClick={() => void v.engine.switchCamera()}>
            <SwitchCameraIcon />
          </RoundButton>
        ) : null}
        {speakerSupported ? (
          <RoundButton label="Speaker" pressed={e.speaker} onClick={() => v.engine.setSpeaker(!e.speaker)}>
            {e.speaker ? <SpeakerIcon /> : <SpeakerOffIcon />}
          </RoundButton>
        ) : null}
      </div>
      <div className="flex items-end justify-around">
        <RoundButton label="Report" onClick={onReport}>
          <FlagIcon />
        </RoundButton>
        <RoundButton label="Hang up" tone="red" onClick={() => void hangUp()}>
          <PhoneOffIcon />
        </RoundButton>
      </div>
    </div>
  );
}
