/**
 * Messages to the server over the tab's live socket (the live feature registers its client here;
 * calls send their signalling through it). Returns false when no socket is up: send by HTTP then.
 */
type Sender = (message: object) => boolean;
let sender: Sender | null = null;

export function setLiveSender(s: Sender | null): void {
  sender = s;
}

export function sendLive(message: object): boolean {
  return sender ? sender(message) : false;
}
