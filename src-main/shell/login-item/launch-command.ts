/** The program (and arguments) the OS should start at login. */
export interface LaunchCommand {
  path: string;
  args: string[];
}

/**
 * How this very app is started again: an AppImage by its own file (execPath points inside its
 * temporary mount), a packaged app by its executable, and `electron .` with the app folder.
 */
export function launchCommand(app: {
  isPackaged: boolean;
  execPath: string;
  appPath: string;
  appImage?: string | undefined;
}): LaunchCommand {
  if (app.appImage) return { path: app.appImage, args: [] };
  if (app.isPackaged) return { path: app.execPath, args: [] };
  return { path: app.execPath, args: [app.appPath] };
}
