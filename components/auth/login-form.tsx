'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

interface Props {
  /** Where to go once signed in (already checked to be a path on this site). */
  next: string;
  basePath: string;
}

async function messageOf(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  return typeof body?.error?.message === 'string' ? body.error.message : `sign-in failed (${res.status})`;
}

/** User name and password, posted as JSON; on success a full navigation to `next`. */
export function LoginForm({ next, basePath }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`${basePath}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ username: form.get('username'), password: form.get('password') }),
      });
      if (res.ok) {
        // A full load rather than a client transition: the shell renders afresh for this user.
        window.location.assign(`${basePath}${next}`);
        return;
      }
      setError(await messageOf(res));
    } catch {
      setError('The dashboard server cannot be reached.');
    }
    setPending(false);
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-label="Sign in">
      <Field id="username" label="User name">
        <Input id="username" name="username" autoComplete="username" required autoFocus className="h-9" />
      </Field>
      <Field id="password" label="Password" error={error}>
        <Input id="password" name="password" type="password" autoComplete="current-password" required className="h-9" aria-invalid={!!error} aria-describedby="password-msg" />
      </Field>
      <Button type="submit" variant="primary" className="mt-1 h-9" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
