/** Fired on window when the server says the signed-in user changed (a tier change): AuthProvider re-reads the session. */
export const SESSION_CHANGED = 'fmk:session-changed';
