import { useSettingsSync } from './store.ts';

export default function SyncPending() {
  useSettingsSync(true);
  return null;
}
