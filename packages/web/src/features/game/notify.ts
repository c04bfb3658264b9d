import type { ToastInput } from '@fmk/core';
import { DISPLAY_DEFAULTS, type Match } from '@fmk/core';

type Show = (input: ToastInput) => string;
type Go = (path: string) => void;

/** A match arrives twice for the one who completes it (the selection's answer and the live event). */
const shown = new Set<string>();

export function matchToastInput(match: Match, go: Go): ToastInput {
  const name = match.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
  return {
    type: 'match',
    title: "It's a match!",
    message: `You and ${name} picked each other.`,
    action: { label: 'Say hi', onClick: () => go(`/messages/chat/${encodeURIComponent(match.other.uid)}`) },
  };
}

/** Shows the match toast once per match (and once more only if it is matched again later). */
export function notifyMatch(show: Show, go: Go, match: Match): boolean {
  const key = `${match.id}@${match.matchedAt}`;
  if (shown.has(key)) return false;
  shown.add(key);
  show(matchToastInput(match, go));
  return true;
}

export type SuperKind = 'super-fuck' | 'super-marry';

export function superToastInput(kind: SuperKind, from: { uid: string; displayName: string | null }, go: Go): ToastInput {
  const name = from.displayName?.trim() || DISPLAY_DEFAULTS.name;
  return {
    type: kind,
    title: kind === 'super-fuck' ? `${name} super-fucked you!` : `${name} super-married you!`,
    message: kind === 'super-fuck' ? 'He really wants you. Have a look.' : "He's serious about you. Have a look.",
    action: { label: 'View profile', onClick: () => go(`/profile/${encodeURIComponent(from.uid)}`) },
  };
}
