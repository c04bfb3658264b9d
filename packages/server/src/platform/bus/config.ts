import { z } from 'zod';

/** The variables of the bus across instances (platform/config.ts reads them with the rest). */
export const busEnv = {
  // Live events across instances through NATS (one subject per user) instead of the database's
  // LISTEN/NOTIFY: one nats:// URL, or several of one cluster, comma separated.
  BUS_URL: z
    .string()
    .trim()
    .refine(
      (v) =>
        v
          .split(',')
          .map((u) => u.trim())
          .every((u) => /^nats:\/\/[^\s/]+\/?$/.test(u)),
      'BUS_URL must be nats://host:port, several separated by commas',
    )
    .optional(),
  // The first tokens of every NATS subject: deployments sharing one NATS cluster keep apart by it.
  BUS_SUBJECT_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/,
      'BUS_SUBJECT_PREFIX must be NATS tokens (letters, digits, _ or -) joined by dots',
    )
    .default('fmk'),
};

/** NATS for live events: its servers and the subjects' prefix. */
export interface BusConfig {
  natsServers: string[];
  subjectPrefix: string;
}

export function resolveBus(e: { BUS_URL?: string | undefined; BUS_SUBJECT_PREFIX: string }): BusConfig | null {
  if (!e.BUS_URL) return null;
  return {
    natsServers: e.BUS_URL.split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    subjectPrefix: e.BUS_SUBJECT_PREFIX,
  };
}
