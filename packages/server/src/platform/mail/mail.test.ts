import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp.ts';
import { composeMail } from './layout.ts';
import { createMailer } from './mailer.ts';

const mail = () =>
  composeMail('sam@example.com', {
    subject: 'Confirm your email',
    paragraphs: ['Hi,', 'Confirm this address <by> opening the link.'],
    action: { label: 'Confirm email', url: 'http://localhost:8080/verify?token=abc_DEF-123' },
    footer: ['The link works once, for 24 hours.'],
  });

describe('outgoing mail over SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('delivers a text and an HTML part to a real SMTP server', async () => {
    const log = { info: vi.fn(), error: vi.fn() };
    const mailer = createMailer(
      { mail: { smtpUrl: sink.url, from: 'Account <no-reply@example.com>', outboxDir: '/nonexistent' } },
      log,
    );
    mailer.send(mail());
    await mailer.settle();
    const got = await sink.waitFor((m) => m.envelopeTo.includes('sam@example.com'));
    expect(got.envelopeFrom).toBe('no-reply@example.com');
    expect(got.subject).toBe('Confirm your email');
    expect(got.text).toContain('Confirm this address <by> opening the link.');
    expect(got.text).toContain('http://localhost:8080/verify?token=abc_DEF-123');
    // The HTML part escapes what it shows and links the same address.
    expect(got.html).toContain('Confirm this address &lt;by&gt; opening the link.');
    expect(got.html).toContain('href="http://localhost:8080/verify?token=abc_DEF-123"');
    expect(log.error).not.toHaveBeenCalled();
    await mailer.close();
  });

  it('never throws to the caller when the server refuses; the failure is logged', async () => {
    const log = { info: vi.fn(), error: vi.fn() };
    const mailer = createMailer({ mail: { smtpUrl: sink.url, from: 'no-reply@example.com', outboxDir: '/nonexistent' } }, log);
    sink.refuse(true);
    try {
      expect(() => mailer.send(mail())).not.toThrow();
      await mailer.settle();
    } finally {
      sink.refuse(false);
    }
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[1]).toBe('mail delivery failed');
    await mailer.close();
  });

  it('logs an unreachable server as a failure too', async () => {
    const log = { info: vi.fn(), error: vi.fn() };
    // Port 1 on loopback: nothing listens there.
    const mailer = createMailer({ mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'no-reply@example.com', outboxDir: '/x' } }, log);
    mailer.send(mail());
    await mailer.settle();
    expect(log.error).toHaveBeenCalledTimes(1);
    await mailer.close();
  });
});

describe('the development outbox', () => {
  it('writes each mail as an .eml file under the outbox folder and logs one line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fmk-outbox-'));
    try {
      const log = { info: vi.fn(), error: vi.fn() };
      const outboxDir = path.join(dir, 'outbox');
      const mailer = createMailer({ mail: { smtpUrl: null, from: 'no-reply@localhost', outboxDir } }, log);
      mailer.send(mail());
      mailer.send({ ...mail(), subject: 'Reset your password' });
      await mailer.settle();
      const files = readdirSync(outboxDir).sort();
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      const parsed = await Promise.all(files.map((f) => simpleParser(readFileSync(path.join(outboxDir, f)))));
      expect(parsed.map((p) => p.subject).sort()).toEqual(['Confirm your email', 'Reset your password']);
      expect(parsed[0]?.text).toContain('http://localhost:8080/verify?token=abc_DEF-123');
      expect(typeof parsed[0]?.html).toBe('string');
      expect(log.info).toHaveBeenCalledTimes(2);
      // Where it is, not whom it is for nor what it says.
      expect(log.info.mock.calls[0]?.[0]).toMatch(/^Mail written to .+\.eml$/);
      await mailer.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
