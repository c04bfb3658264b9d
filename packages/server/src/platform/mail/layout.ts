import type { Mail } from './types.ts';

/**
 * One look for every mail: a few short paragraphs, at most one button, a quiet footer. Both a
 * plain-text part (what many phones preview, and what a careful reader prefers) and an HTML part
 * are made from the same words, so they never say different things.
 */
export interface MailContent {
  subject: string;
  paragraphs: string[];
  /** The one thing to do: a button in HTML, the label and the bare link in text. */
  action?: { label: string; url: string };
  /** Small print under the button (how long a link works, what to do if it was not you). */
  footer?: string[];
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function composeMail(to: string, c: MailContent): Mail {
  const text = [...c.paragraphs, ...(c.action ? [`${c.action.label}:\n${c.action.url}`] : []), ...(c.footer ?? [])].join('\n\n');

  const p = (s: string, style: string) => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;
  const body = [
    ...c.paragraphs.map((s) => p(s, 'font-size:16px;line-height:24px;color:#1f1f24')),
    c.action
      ? `<p style="margin:24px 0"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;background:#d92d45;color:#ffffff;font-size:16px;font-weight:bold;text-decoration:none;padding:12px 24px;border-radius:24px">${escapeHtml(c.action.label)}</a></p>` +
        p(
          `Or paste this link into your browser: ${c.action.url}`,
          'font-size:13px;line-height:20px;color:#5c5c66;word-break:break-all',
        )
      : '',
    ...(c.footer ?? []).map((s) => p(s, 'font-size:13px;line-height:20px;color:#5c5c66')),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f7f7f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:16px;padding:24px">
${body}
</div>
</body></html>
`;
  return { to, subject: c.subject, text: `${text}\n`, html };
}
