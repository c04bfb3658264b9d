import type { PrivateDataExport } from '@fmk/core';

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = Array.isArray(v) ? v.join('; ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function section<T extends object>(title: string, columns: (keyof T & string)[], rows: readonly T[]): string {
  const lines = [`# ${title}`, columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => field(r[c])).join(','));
  return lines.join('\r\n');
}

/** The export as one CSV file: a section per record type, each with its own header row. */
export function exportToCsv(d: PrivateDataExport): string {
  return [
    section(
      'medications',
      ['id', 'name', 'reminderTime', 'reminderType', 'postExposureHours', 'isActive', 'created'],
      d.medications,
    ),
    section('medication logs', ['id', 'medicationId', 'date', 'taken', 'takenAt'], d.medicationLogs),
    section('sti screenings', ['id', 'date', 'tests', 'results', 'created'], d.screenings),
    section(
      'contacts',
      [
        'id',
        'name',
        'nickname',
        'age',
        'photoURL',
        'userId',
        'phoneNumber',
        'notes',
        'tags',
        'lastActivity',
        'totalActivities',
        'avgRating',
        'created',
      ],
      d.contacts,
    ),
    section(
      'activity logs',
      ['id', 'date', 'partners', 'location', 'activities', 'rating', 'notes', 'duration', 'protection', 'created'],
      d.activityLogs,
    ),
  ]
    .join('\r\n\r\n')
    .concat('\r\n');
}
