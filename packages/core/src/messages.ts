/** The spec's user-facing messages (section 8), in one place so server and web say the same words. */
export const Messages = {
  emailBanned: 'Email address is banned from the platform',
  newEmailBanned: 'New email address is banned from the platform',
  identityNotFound: 'Identity mapping not found',
  currentIdentityNotFound: 'Current identity mapping not found',
  idGenerationExhausted: 'Unable to generate unique anonymous identifier',
  authRequired: 'Authentication required',
  authNotInitialized: 'Auth service not initialized',
  locationUnauthenticated: 'User not authenticated',
  notAuthenticated: 'Not authenticated',
  adminRequired: 'Admin access required',
  loginFailed: 'Login failed. Please try again.',
  logoutFailed: 'Logout failed. Please try again.',
  initFailed: 'Failed to initialize authentication',
  invalidCredentials: 'Incorrect email or password.',
  emailTaken: 'An account with this email already exists.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  tooManySignUps: 'Too many new accounts from here. Please try again later.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  profileIncomplete: 'Complete your profile first: display name, age, bio, a photo, height, position and two prompts.',
  photoLimit: (limit: number, plan: 'Premium' | 'Platinum') =>
    `You can have up to ${limit} photos on your plan. Add more photos with ${plan} membership...`,
  photoLimitMax: (limit: number) => `You can have up to ${limit} photos.`,
  photoType: 'Photos must be JPEG, PNG, WebP, GIF, HEIC or AVIF images.',
  photoTooLarge: (mb: number) => `Photos must be smaller than ${mb} MB.`,
  photoUnreadable: 'That file is not an image we can read.',
  photoMissing: 'Choose a photo to upload (form field "file").',
  photoTooManyPixels: 'Photos must be at most 64 megapixels.',
  photoOrderInvalid: 'The new order must list each of your photos exactly once.',
  selectedPhotosInvalid: 'Selected photos must be photos on your profile.',
  promptUnavailable: 'That prompt is not available. Choose another one.',
  promptDuplicate: 'Each prompt can be answered only once.',
  notFound: 'Not found',
  userNotFound: 'User not found',
  promptNotFound: 'Prompt not found',
  ownPromptLike: "You can't like your own prompt.",
  somethingWentWrong: 'Something went wrong',
  errorBody: "We're sorry, but something unexpected happened. Please try again.",
} as const;

/** Shown at sign-up when the email is banned (spec section 8). */
export function banNotice(ban: { isPermanent: boolean; expiresAt: Date | null; reason: string }): string {
  if (ban.isPermanent || !ban.expiresAt) return `Your email is permanently banned. Reason: ${ban.reason}`;
  return `Your email is banned until ${ban.expiresAt.toISOString().slice(0, 10)}. Reason: ${ban.reason}`;
}
