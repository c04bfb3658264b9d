import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { downloadPrivateFile } from '../../shared/files.ts';

/**
 * Export and deletion of all health and activity data. The export is fetched with the session's
 * token and saved through a blob link, so it never sits in a URL or a cache.
 */
export function downloadPrivateData(format: 'json' | 'csv'): Promise<void> {
  return downloadPrivateFile(`/me/private-data?format=${format}`, {
    fallbackName: `fmk-health-activity.${format}`,
    failure: 'We could not prepare your export. Please try again.',
  });
}

/** Deletes every record and the key they were encrypted with; every health and activity view empties. */
export function useDeleteAllPrivateDataMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('DELETE /me/private-data'),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: ['health'] }), qc.invalidateQueries({ queryKey: ['activity'] })]);
    },
  });
}
