import { useQuery } from '@tanstack/react-query';
import { call } from '../api/call.ts';
import { settingsKeys } from './queryKeys.ts';

/**
 * GET /me/settings: his settings store. Shared because several features read it (the safety
 * score, the chat's photo filter) and none of them owns it.
 */
export function useMySettingsQuery() {
  return useQuery({ queryKey: settingsKeys.mine(), queryFn: () => call('GET /me/settings'), staleTime: 60_000 });
}
