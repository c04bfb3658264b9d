import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

export const promptKeys = { all: ['prompts'] as const, active: () => [...promptKeys.all, 'active'] as const };

/** GET /api/v1/prompts: the active prompts. */
export function usePromptsQuery() {
  return useQuery({ queryKey: promptKeys.active(), queryFn: () => call('GET /prompts'), staleTime: 10 * 60_000 });
}
