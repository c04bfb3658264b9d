import { z } from 'zod';

/**
 * The variables of the server's protections (platform/config.ts reads them with the rest): the
 * rate limits that are set per deployment and the durability guard's escape hatch. Every limit,
 * these and the fixed ones, is listed with its reason in docs/security.md.
 */
export const protectionsEnv = {
  // Sign-ups an hour from one address, and in all (a ceiling against a spread-out flood).
  SIGNUP_LIMIT_PER_SOURCE: z.coerce.number().int().min(1).default(10),
  SIGNUP_LIMIT_GLOBAL: z.coerce.number().int().min(1).default(300),
  // Messages one member may send a minute (on each instance): a person types far fewer, a spam script more.
  MESSAGE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  // Frames one live socket may send a second (auth, pings, a call's ICE candidates); past it the socket is closed.
  LIVE_FRAMES_PER_SECOND: z.coerce.number().int().min(5).default(50),
  // The largest live frame (a call's SDP offer is a few kB); a bigger one closes the socket (1009).
  LIVE_MAX_FRAME_KB: z.coerce.number().int().min(16).max(1024).default(64),
  // Start even when PostgreSQL may lose committed data on a crash (fsync, synchronous_commit or full_page_writes off).
  ALLOW_UNSAFE_DURABILITY: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
};

export interface ProtectionsConfig {
  /** Sign-ups allowed an hour, from one source address and in all. */
  signUpLimits: { perSource: number; global: number };
  /** Limits of the busiest writes, counted in memory on each instance (docs/security.md). */
  rateLimits: { messagesPerMinute: number; liveFramesPerSecond: number; liveMaxFrameBytes: number };
  /** ALLOW_UNSAFE_DURABILITY: start on a PostgreSQL that may lose commits on a crash (db/durability.ts). */
  allowUnsafeDurability: boolean;
}

interface ProtectionsEnv {
  SIGNUP_LIMIT_PER_SOURCE: number;
  SIGNUP_LIMIT_GLOBAL: number;
  MESSAGE_LIMIT_PER_MINUTE: number;
  LIVE_FRAMES_PER_SECOND: number;
  LIVE_MAX_FRAME_KB: number;
  ALLOW_UNSAFE_DURABILITY?: boolean | undefined;
}

export function resolveProtections(e: ProtectionsEnv): ProtectionsConfig {
  return {
    signUpLimits: { perSource: e.SIGNUP_LIMIT_PER_SOURCE, global: e.SIGNUP_LIMIT_GLOBAL },
    rateLimits: {
      messagesPerMinute: e.MESSAGE_LIMIT_PER_MINUTE,
      liveFramesPerSecond: e.LIVE_FRAMES_PER_SECOND,
      liveMaxFrameBytes: e.LIVE_MAX_FRAME_KB * 1024,
    },
    allowUnsafeDurability: e.ALLOW_UNSAFE_DURABILITY ?? false,
  };
}
