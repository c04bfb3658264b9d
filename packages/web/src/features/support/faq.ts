import { CRUISE_QUOTA, formatPrice, type PlanRecord, SUPER_PER_DAY, TIER_LIMITS, UNLIMITED } from '@fmk/core';

/**
 * The help screen's questions, one topic per feature of the app. Static text in the lazy help
 * chunk; the numbers come from core, the limits the server enforces, so an answer never drifts
 * from what the app does.
 */
export interface FaqEntry {
  q: string;
  a: string;
}
export interface FaqTopic {
  id: string;
  title: string;
  entries: FaqEntry[];
}

const free = TIER_LIMITS.free;
const premium = TIER_LIMITS.premium;
const perDay = (n: number) => (n === UNLIMITED ? 'as many as you like' : `${n} a day`);

const PRICE_QUESTION = 'What do Premium and Platinum cost?';

export const FAQ: readonly FaqTopic[] = [
  {
    id: 'game',
    title: 'Fuck, marry, kill',
    entries: [
      {
        q: 'How does the game work?',
        a: "For each man you see, pick fuck, marry or kill. Fuck and marry are saved; kill just moves on and he never knows. When he picks fuck or marry for you too, it's a match.",
      },
      {
        q: 'What kind of match did we get?',
        a: 'Both picked fuck: a perfect fuck. Both picked marry: a perfect marry. One of each: a mixed match. Either way a conversation opens for the two of you.',
      },
      {
        q: 'What are super picks?',
        a: `A super fuck or super marry makes your pick stand out to him. Free gives you ${SUPER_PER_DAY.free} a day, Premium ${SUPER_PER_DAY.premium}, Platinum as many as you like.`,
      },
      {
        q: 'Why do I only see fuck or only marry?',
        a: 'Your app mode decides. Both offers fuck and marry; F#K is hookups only; #MK is dating only and also hides cruising. Change it in Settings.',
      },
    ],
  },
  {
    id: 'grid',
    title: 'The grid',
    entries: [
      {
        q: 'Who shows up on my grid?',
        a: "Men near you whose profile is finished and who show themselves in your current mode (dating or hookup). Men you blocked, or who blocked you, never appear. Incognito members aren't listed.",
      },
      {
        q: 'How many profiles can I open?',
        a: `Free opens ${free.clickableProfiles} profiles a day, Premium ${premium.clickableProfiles}, Platinum every one. Opening the same man again the same day doesn't count twice.`,
      },
      {
        q: 'How exact is the distance shown?',
        a: 'Never exact. Distances are rounded into bands and grid positions are blurred, so nobody can work out where you are. Your coordinates never leave our server.',
      },
      {
        q: 'What do dating mode and hookup mode change?',
        a: 'Dating (the heart) is for something meaningful; hookup (the flame) is for now. Each mode has its own profile, and you choose in which modes you appear. You can switch by hand or let the app switch by the time of day.',
      },
    ],
  },
  {
    id: 'matches',
    title: 'Matches and likes',
    entries: [
      {
        q: 'Where do I see who picked me?',
        a: 'Under Messages. Free members see how many men picked them, blurred; Premium and Platinum see who they are.',
      },
      {
        q: 'Can I undo a match?',
        a: 'Block him: the match, your conversation and both your picks are deleted for both of you.',
      },
    ],
  },
  {
    id: 'chat',
    title: 'Chat',
    entries: [
      {
        q: 'Who can I message?',
        a: 'Your matches. Platinum members can also message a man before matching.',
      },
      {
        q: 'How many messages can I send?',
        a: `Free sends ${perDay(free.messagesPerDay)}, Premium ${perDay(premium.messagesPerDay)}, Platinum as many as you like. The count starts again each day.`,
      },
      {
        q: 'Can he see that I read his message?',
        a: 'Read receipts are a Premium and Platinum feature, and you can switch them off in Privacy. Photos you send are cleaned of their location and camera data first.',
      },
    ],
  },
  {
    id: 'cruise',
    title: 'Cruise',
    entries: [
      {
        q: 'What is cruising?',
        a: 'Tell men nearby you are available right now, for a 30-minute session. You see other cruisers within a few kilometres, by rounded distance, never an exact spot.',
      },
      {
        q: 'How often can I cruise?',
        a: `Free: one session a ${CRUISE_QUOTA.free.period}. Premium: one a ${CRUISE_QUOTA.premium.period}. Platinum: as often as you like.`,
      },
      {
        q: 'What are spots and events?',
        a: 'Spots are places members suggest; staff check each one before it is listed. Events are meetups members organise, with comments and attendees.',
      },
      {
        q: "I don't see Cruise",
        a: 'It is hidden when cruising is switched off in Settings or your app mode is #MK (dating only). Cruising also needs your consent to share location.',
      },
    ],
  },
  {
    id: 'health',
    title: 'Health',
    entries: [
      {
        q: 'What can I track?',
        a: 'Your medications (PrEP, PEP and others) with a daily reminder, and your STI screenings with their results. The Health tab shows a red dot when a dose is due or a screening is overdue.',
      },
      {
        q: 'When is a screening overdue?',
        a: 'When your last one is three months old or more, or you have none yet.',
      },
      {
        q: 'Who can see my health data?',
        a: 'Only you. It is encrypted on our server, never shown to other members, and never named in an email subject.',
      },
    ],
  },
  {
    id: 'activity',
    title: 'Activity log',
    entries: [
      {
        q: 'What is the activity log for?',
        a: 'A private diary of your encounters: who (your own contacts), when, what, protection and a rating. It adds up your stats for the week and month.',
      },
      {
        q: 'Can the men I log see it?',
        a: 'No. Contacts and logs are yours alone; nobody else, staff included, reads them through the app.',
      },
    ],
  },
  {
    id: 'safety',
    title: 'Safety',
    entries: [
      {
        q: 'How do I block someone?',
        a: "Open his profile or your chat and choose Block. He can't see you or message you, and your conversation disappears for both of you. Unblock him any time in Settings, Blocked users.",
      },
      {
        q: 'Does he know I blocked him?',
        a: "No. To him you simply aren't there, exactly as if you had left the app.",
      },
      {
        q: 'Is FMK for adults only?',
        a: 'Yes. Every member must be 18 or over.',
      },
    ],
  },
  {
    id: 'plans',
    title: 'Plans',
    entries: [
      {
        q: PRICE_QUESTION,
        a: 'Premium and Platinum are paid monthly, in US dollars. Their prices are in Settings, Premium, with the full comparison.',
      },
      {
        q: 'What is lifetime Premium?',
        a: 'Members who joined during the beta keep Premium for life, free, and are never moved back to Free.',
      },
      {
        q: 'What is priority support?',
        a: "Platinum members' conversations with support are answered first.",
      },
    ],
  },
  {
    id: 'privacy',
    title: 'Privacy',
    entries: [
      {
        q: 'What do other members see about me?',
        a: 'Your profile, photos and a rounded distance. Never your email, never your exact location, never your health or activity data.',
      },
      {
        q: 'What does incognito do?',
        a: "With Premium or Platinum you browse without appearing on anyone's grid.",
      },
      {
        q: 'Are my photos cleaned?',
        a: 'Every photo you upload, screenshots for bug reports too, is re-encoded and stripped of its location and camera data before anyone sees it.',
      },
    ],
  },
  {
    id: 'account',
    title: 'Your account',
    entries: [
      {
        q: 'How do I change my email or password?',
        a: "Settings, Account. A new email address takes effect when you open the link we mail to it. Forgot your password? Use 'Forgot password?' on the sign-in screen.",
      },
      {
        q: "Can I see where I'm signed in?",
        a: 'Settings lists every device signed in to your account. Sign any of them out, or all but this one.',
      },
      {
        q: 'Can I download or delete my data?',
        a: 'Yes. Settings, Account: download everything we hold about you in one file, or delete your account and everything in it. Deleting signs you out everywhere and cannot be undone.',
      },
    ],
  },
];

export const SAFETY_TIPS: readonly string[] = [
  'Meet in a public place the first time, and tell a friend where you are going and with whom.',
  'Keep the chat in the app until you trust him: there you can block him in one tap.',
  'Never send money or your address to someone you have not met.',
  'Video call before meeting if you can; it is the quickest way to know he is who his photos say.',
  'Bring your own protection, and keep your health tracking up to date.',
  'If something feels off, leave. Block him, and tell us through Contact support.',
];

/**
 * The FAQ with today's prices: staff edit them (Pricing), so the answer reads the plans the server
 * sells. Without them (not loaded yet, offline) the answer sends the reader to Settings, Premium.
 */
export function faqWithPrices(plans: readonly Pick<PlanRecord, 'tier' | 'name' | 'priceCents' | 'active'>[] | undefined) {
  const sold = (plans ?? []).filter((p) => p.active);
  if (!sold.length) return FAQ;
  const prices = sold.map((p) => `${p.name} is ${formatPrice(p.priceCents)} a month`).join(', ');
  const a = `${prices}, in US dollars. The full comparison is below, and in Settings, Premium.`;
  return FAQ.map((topic) => ({ ...topic, entries: topic.entries.map((e) => (e.q === PRICE_QUESTION ? { ...e, a } : e)) }));
}

/** Topics with only the entries whose question or answer contains every word of the query. */
export function searchFaq(query: string, faq: readonly FaqTopic[] = FAQ): FaqTopic[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...faq];
  return faq.flatMap((topic) => {
    const entries = topic.entries.filter((e) => {
      const hay = `${topic.title} ${e.q} ${e.a}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    return entries.length ? [{ ...topic, entries }] : [];
  });
}
