/**
 * Hands a text file to the browser's (or Electron's) download, from memory: a Blob URL on a
 * temporary link. False where the page cannot make one (a test DOM without createObjectURL).
 */
export function saveTextFile(filename: string, text: string, type = 'text/csv;charset=utf-8'): boolean {
  if (typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: the download reads the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
