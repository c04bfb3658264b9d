import type { Module } from '../platform/module.ts';
import { accountModule } from './account/routes.ts';
import { activityModule } from './activity/routes.ts';
import { adminModule } from './admin/routes.ts';
import { authModule } from './auth/routes.ts';
import { billingModule } from './billing/routes.ts';
import { boostModule } from './boost/routes.ts';
import { callsModule } from './calls/routes.ts';
import { cruiseModule } from './cruise/routes.ts';
import { discoveryModule } from './discovery/routes.ts';
import { gameModule } from './game/routes.ts';
import { healthModule } from './health/routes.ts';
import { liveModule } from './live/routes.ts';
import { messagingModule } from './messaging/routes.ts';
import { moderationModule } from './moderation/routes.ts';
import { notificationsModule } from './notifications/routes.ts';
import { profilesModule } from './profiles/routes.ts';
import { promptsModule } from './prompts/routes.ts';
import { safetyModule } from './safety/routes.ts';
import { settingsModule } from './settings/routes.ts';
import { supportModule } from './support/routes.ts';

/** Every feature module, in registration order. */
export const modules: Module[] = [
  authModule,
  accountModule,
  adminModule,
  profilesModule,
  promptsModule,
  gameModule,
  messagingModule,
  safetyModule,
  settingsModule,
  liveModule,
  callsModule,
  discoveryModule,
  notificationsModule,
  healthModule,
  activityModule,
  cruiseModule,
  supportModule,
  moderationModule,
  billingModule,
  boostModule,
];
