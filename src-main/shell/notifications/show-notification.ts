import { Notification } from 'electron';
import type { ShellNotification } from './notifications-for';

/** Shown notifications, held so a click still reaches us after the garbage collector would have run. */
const live = new Set<Notification>();

/** Electron glue: shows one desktop notification where the OS supports them; clicking it runs `onClick`. */
export function showNotification(notification: ShellNotification, onClick: () => void): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notification.title, body: notification.body });
  live.add(shown);
  shown.on('click', () => {
    live.delete(shown);
    onClick();
  });
  shown.on('close', () => live.delete(shown));
  shown.show();
}
