import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';

/**
 * Field errors of an editor form. `refuse` sets them after a refused save and then moves focus to
 * the first invalid field; errors cleared while typing leave focus where the user is.
 */
export function useFormErrors<E extends object>(
  initial: E,
): {
  errors: E;
  setErrors: Dispatch<SetStateAction<E>>;
  refuse(next: E): void;
  formRef: RefObject<HTMLFormElement | null>;
} {
  const [errors, setErrors] = useState<E>(initial);
  const formRef = useRef<HTMLFormElement>(null);
  const refused = useRef(false);
  useEffect(() => {
    if (!refused.current) return;
    refused.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return {
    errors,
    setErrors,
    refuse(next) {
      refused.current = true;
      setErrors(next);
    },
    formRef,
  };
}
