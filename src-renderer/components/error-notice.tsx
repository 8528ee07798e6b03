/** A refusal that belongs to no single field (or a whole action), announced as it appears; nothing when there is none. */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="notice error" role="alert">
      {message}
    </p>
  );
}
