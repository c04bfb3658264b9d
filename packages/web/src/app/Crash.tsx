/** /debug/crash: throws while rendering so the error screen can be checked in any build. */
export function Crash(): never {
  throw new Error('Deliberate crash at /debug/crash');
}
