import type { Medication, ReminderType } from '@fmk/core';
import { type FormEvent, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Segmented } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useCreateMedicationMutation, useDeleteMedicationMutation, useUpdateMedicationMutation } from './queries.ts';

const TYPES: { value: ReminderType; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'on-demand', label: 'On demand' },
];

/** Add a medication (no `medication`) or edit, pause and delete one. */
export function MedicationSheet({
  open,
  medication,
  onClose,
}: {
  open: boolean;
  medication: Medication | null;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [time, setTime] = useState('09:00');
  const [type, setType] = useState<ReminderType>('daily');
  const [hours, setHours] = useState('72');
  const [active, setActive] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const create = useCreateMedicationMutation();
  const update = useUpdateMedicationMutation();
  const del = useDeleteMedicationMutation();
  const toast = useToast();

  useEffect(() => {
    if (!open) return;
    setName(medication?.name ?? '');
    setTime(medication?.reminderTime ?? '09:00');
    setType(medication?.reminderType ?? 'daily');
    setHours(String(medication?.postExposureHours ?? 72));
    setActive(medication?.isActive ?? true);
    setError(null);
    setConfirmDelete(false);
  }, [open, medication]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const body = {
      name: name.trim(),
      reminderTime: time,
      reminderType: type,
      postExposureHours: type === 'on-demand' ? Number.parseInt(hours, 10) || null : null,
      isActive: active,
    };
    try {
      if (medication) await update.mutateAsync({ id: medication.id, patch: body });
      else await create.mutateAsync(body);
      toast.success(medication ? 'Medication updated' : 'Medication added');
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not save this medication. Please try again.'));
    }
  };

  const remove = async () => {
    if (!medication) return;
    try {
      await del.mutateAsync(medication.id);
      toast.success('Medication deleted');
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not delete this medication. Please try again.'));
    }
  };

  return (
    <Sheet open={open} onClose={onClose} title={medication ? 'Edit medication' : 'Add medication'}>
      <form onSubmit={submit} className="flex flex-col gap-4 pb-2" noValidate>
        <TextField
          label="Name"
          value={name}
          maxLength={80}
          required
          autoComplete="off"
          placeholder="e.g. PrEP"
          onChange={(e) => setName(e.target.value)}
        />
        <Segmented label="Reminder" options={TYPES} value={type} onChange={setType} />
        <TextField
          label={type === 'daily' ? 'Reminder time' : 'Usual time'}
          type="time"
          value={time}
          required
          hint={type === 'daily' ? 'We remind you within an hour either side of this time.' : undefined}
          onChange={(e) => setTime(e.target.value)}
        />
        {type === 'on-demand' ? (
          <TextField
            label="Hours after exposure"
            type="number"
            inputMode="numeric"
            min={1}
            max={168}
            value={hours}
            hint="Post-exposure: how soon it has to be taken."
            onChange={(e) => setHours(e.target.value)}
          />
        ) : null}
        {medication ? (
          <Switch
            label="Reminders on"
            hint="Pause to keep the medication without reminders."
            checked={active}
            onChange={setActive}
          />
        ) : null}
        <FormError>{error}</FormError>
        <Button type="submit" block loading={create.isPending || update.isPending}>
          {medication ? 'Save changes' : 'Save medication'}
        </Button>
        {medication ? (
          confirmDelete ? (
            <div className="flex flex-col gap-2 rounded-2xl bg-primary-soft p-3">
              <p className="text-sm text-ink">Delete {medication.name} and its history? This cannot be undone.</p>
              <div className="flex gap-2">
                <Button variant="secondary" className="flex-1" onClick={() => setConfirmDelete(false)}>
                  Keep
                </Button>
                <Button variant="danger" className="flex-1" loading={del.isPending} onClick={() => void remove()}>
                  Delete
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="ghost" block onClick={() => setConfirmDelete(true)}>
              Delete medication
            </Button>
          )
        ) : null}
      </form>
    </Sheet>
  );
}
