import { useEffect, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useConfigQuery } from '../auth/queries.ts';
import { disablePush, enablePush, hasPushSubscription, type PushSupport, pushSupport } from './push.ts';

/**
 * "Turn on notifications" (settings): asks the browser's permission from this click only, then
 * subscribes. Shows why when push cannot work here (blocked, unsupported, not offered).
 */
export function PushToggle() {
  const { user } = useAuth();
  const config = useConfigQuery();
  const [support, setSupport] = useState<PushSupport>(() => pushSupport());
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const key = config.data?.vapidPublicKey ?? null;

  useEffect(() => {
    let live = true;
    void hasPushSubscription().then((v) => live && setOn(v));
    return () => {
      live = false;
    };
  }, []);

  let note: string | null = null;
  if (config.isSuccess && !key) note = 'Push notifications are not available on this server.';
  else if (support === 'unsupported')
    note = 'This browser cannot show push notifications. Add FMK to your home screen to get them.';
  else if (support === 'denied')
    note = 'Notifications are blocked for FMK. Allow them in your browser settings to get them here.';

  const turnOn = async () => {
    if (!user) return;
    setBusy(true);
    const s = await enablePush({ uid: user.uid, vapidPublicKey: key });
    setSupport(s);
    setOn(await hasPushSubscription());
    setBusy(false);
  };
  const turnOff = async () => {
    setBusy(true);
    await disablePush();
    setOn(false);
    setBusy(false);
  };

  return (
    <section aria-labelledby="push-heading" className="flex flex-col gap-3 p-4">
      <h2 id="push-heading" className="text-lg font-semibold">
        Push notifications
      </h2>
      <p className="text-sm opacity-80">
        {on
          ? 'On: you get a notification for new matches and messages while FMK is closed.'
          : 'Get a notification for new matches and messages while FMK is closed.'}
      </p>
      {note ? (
        <p className="text-sm" role="status">
          {note}
        </p>
      ) : on ? (
        <Button variant="secondary" loading={busy} onClick={() => void turnOff()}>
          Turn off notifications
        </Button>
      ) : (
        <Button loading={busy} disabled={!key || !user} onClick={() => void turnOn()}>
          Turn on notifications
        </Button>
      )}
    </section>
  );
}
